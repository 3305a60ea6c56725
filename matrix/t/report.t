# The report is made from matrix.json alone: summary, problems, the
# variants-by-tests table, and an HTML twin.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use VMAB::File qw(slurp);
use VMAB::Report qw(write_report variants_by_tests);

my $m = {
	generated => '2026-12-03 10:00:00 UTC', accelerator => 'tcg', qemu_version => '7.2.0',
	host_kernel => 'h', source_version => '6.1.192',
	variants => {
		none => { outcome => 'PASS', kernel_release => '6.1.192+', problems => [], why => [],
			  phases => { config => 10, build => 100, boot => 20 },
			  modes => { 'swap-classic' => { tests => { 'p/a' => { result => 'pass' },
								    'p/b' => { result => 'skip', reason => 'x' } } },
				     'noswap-classic' => { tests => { 'p/a' => { result => 'pass' },
								      'p/b' => { result => 'pass' } } } } },
		both => { outcome => 'FAIL', kernel_release => '6.1.192+', why => ['splat: WARNING: x'],
			  problems => [{ mode => 'swap-classic', id => 'p/a', want => 'pass', got => 'fail',
					 what => 'unexpected failure', why => ['t.c:9:a:Expected 1 (1) == x (0)'] }],
			  phases => { build => 50 },
			  modes => { 'swap-classic' => { tests => { 'p/a' => { result => 'fail' } } } } },
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
like($md, qr/^\| none \| PASS \| 6\.1\.192\+ \| noswap-classic, swap-classic \| 10 \| 100 \| 20 \| 0 \|$/m, 'summary row');
like($md, qr/^- both: splat: WARNING: x$/m, 'boot problem listed');
like($md, qr/^- both swap-classic `p\/a`: unexpected failure \(expected pass, got fail\)$/m, 'judge problem listed');
like($md, qr/^    - `t\.c:9:a:Expected 1 \(1\) == x \(0\)`$/m, '... with the words the test failed with');
my $html = slurp("$dir/report.html");
like($html, qr/<table>/, 'HTML has tables');
like($html, qr/<td><code>p\/a<\/code><\/td>/, 'HTML cell with code');
unlike($html, qr/\| test \|/, 'no raw markdown table left in HTML');
done_testing;
