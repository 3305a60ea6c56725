# The report is made from matrix.json alone: summary, problems, the
# variants-by-tests table, and an HTML twin.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use VMAB::File qw(slurp);
use VMAB::Report qw(write_report variants_by_tests);
use VMAB::Report::Html qw(headings);
use VMAB::BrowserCheck qw(network_problems);

my $m = {
	generated => '2026-12-03 10:00:00 UTC', accelerator => 'tcg', qemu_version => '7.2.0',
	host_kernel => 'h', source_version => '6.1.192',
	variants => {
		none => { outcome => 'PASS', kernel_release => '6.1.192+', problems => [], why => [],
			  phases => { config => 10, build => 100, boot => 20 },
			  results => [{ mode => 'swap-classic', test => 'p/a', status => 'pass' },
				      { mode => 'swap-classic', test => 'p/b', status => 'skip', reason => 'x' },
				      { mode => 'noswap-classic', test => 'p/a', status => 'pass' },
				      { mode => 'noswap-classic', test => 'p/b', status => 'pass' }] },
		both => { outcome => 'FAIL', kernel_release => '6.1.192+', why => ['splat: WARNING: x'],
			  problems => [{ mode => 'swap-classic', id => 'p/a', want => 'pass', got => 'fail',
					 what => 'unexpected failure', why => ['t.c:9:a:Expected 1 (1) == x (0)'] }],
			  phases => { build => 50 },
			  results => [{ mode => 'swap-classic', test => 'p/a', status => 'fail' }] },
	},
};
my $t = variants_by_tests($m);
like($t, qr/^\| test \| none \| both \|$/m, 'columns in the canonical variant order');
like($t, qr/^\| `p\/a` \| pass \| \*\*FAIL\*\* 1\/1 \|$/m, 'pass everywhere, and a failure');
like($t, qr/^\| `p\/b` \| pass 1 \/ skip 1 \| - \|$/m, 'mixed modes, and a test not run');

my $dir = tempdir(CLEANUP => 1);
write_report($m, $dir);
my $md = slurp("$dir/report.md");
like($md, qr/accelerator \*\*TCG\*\*/, 'accelerator stated');
like($md, qr/compare ratios/, 'TCG warning');
unlike($md, qr/clocksource/i, 'a matrix.json from before /init named its clock: no clock in the header');
like($md, qr/^\| none \| PASS \| not recorded \| 6\.1\.192\+ \| noswap-classic, swap-classic \| 10 \| 100 \| 20 \| 0 \|$/m, 'summary row');
like($md, qr/^- both: splat: WARNING: x$/m, 'boot problem listed');
like($md, qr/^- both swap-classic `p\/a`: unexpected failure \(expected pass, got fail\)$/m, 'judge problem listed');
like($md, qr/^    - `t\.c:9:a:Expected 1 \(1\) == x \(0\)`$/m, '... with the words the test failed with');
my $html = slurp("$dir/report.html");
like($html, qr/<table>/, 'HTML has tables');
like($html, qr/<td><code>p\/a<\/code><\/td>/, 'HTML cell with code');
unlike($html, qr/\| test \|/, 'no raw markdown table left in HTML');

# The header names the guest's clocksource (suite/init.sh, VMAB::Results).
{
	local $m->{variants}{none}{clocksources} = ['tsc-early', 'tsc'];
	local $m->{variants}{both}{clocksources} = ['tsc-early', 'tsc'];
	my $head = (VMAB::Report::report_md($m, $dir) =~ /^(Generated .*)$/m)[0];
	like($head, qr/ Guest clocksource \*\*tsc-early then tsc\*\*\. Host kernel h\. /,
	     'one clock for every variant: named once, after the accelerator');
	$m->{variants}{both}{clocksources} = ['tsc', 'refined-jiffies'];
	$head = (VMAB::Report::report_md($m, $dir) =~ /^(Generated .*)$/m)[0];
	like($head, qr/ Guest clocksource \*\*tsc then refined-jiffies\*\* \(both\), \*\*tsc-early then tsc\*\* \(none\): a jiffies clock moves in 4 ms steps, so the benchmarks timed by it are flagged in "What went wrong"\. Host kernel h\. /,
	     'clocks that differ: each with its variants, and a jiffies clock said to be one');
}

# Reader first, so that the answer comes before the evidence: the summary, the contents, the evidence, what
# came after, then the appendix with the per-cell tables.
is_deeply([map { $_->[1] } grep { $_->[0] == 2 } headings($md)],
	  ['Summary', 'Contents', 'Variants', 'What went wrong', 'Scenarios and the questions of 2014', 'Benchmarks',
	   'What came after', 'Appendix: per-cell tables'], 'the report\'s parts, in order');
my %anchor = map { $_->[2] => 1 } headings($md);
my @md_links = $md =~ /\]\(#([^)]+)\)/g;
cmp_ok(scalar @md_links, '>', 10, 'internal links in report.md');
is_deeply([grep { !$anchor{$_} } @md_links], [], 'every internal link of report.md has a heading');
my %id = map { $_ => 1 } $html =~ /\sid="([^"]+)"/g;
is_deeply([grep { !$id{$_} } $html =~ /href="#([^"]+)"/g], [], 'every internal link of report.html has a target');
my ($contents) = $md =~ /^## Contents\n\n(.*?)\n\n/ms;
is_deeply([$contents =~ /^- \[([^\]]+)\]/mg],
	  ['Variants', 'What went wrong', 'Scenarios and the questions of 2014', 'Benchmarks', 'What came after',
	   'Appendix: per-cell tables'], 'the contents list the evidence and the appendix');
like($md, qr/^### Every test, by variant\n.*^\| `p\/a` \|/ms, 'the per-test table is in the appendix');
like($md, qr/All 1 variants|Not clean: both \(FAIL\)/, 'the verdict comes first');
is_deeply([network_problems($html)], [], 'the page loads nothing from the network');
like($html, qr/\@media print/, 'print styles');

# A bug in report code fails the report (and so the run) instead of
# turning into a line of italics.
{
	no warnings 'redefine';
	local *VMAB::Report::Bench::section = sub { die "bench: a bug\n" };
	ok(!eval { write_report($m, tempdir(CLEANUP => 1)); 1 }, 'a section that dies fails the report');
	is($@, "bench: a bug\n", '... with its message');
}
done_testing;
