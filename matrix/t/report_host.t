# The guests' figures beside this host's (make host-bench):
# out/results/host-bench.json read by the data layer (absent: not measured;
# corrupt: an error), the host's figures beside the guests' medians in the
# analysis (VMAB::Report::Goals::host_vs_guest, checked with is_deeply on
# the fixtures report-matrix.json and host-bench.json, the latter a real
# make host-bench run), and the tables and the line that render them.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use VMAB::File qw(slurp spew);
use VMAB::Results qw(load_matrix);
use VMAB::Report::Data qw(host_bench host_matrix);
use VMAB::Report::Goals;
use VMAB::Report qw(report_md);

my $fx = "$FindBin::Bin/fixtures";
my $m = load_matrix("$fx/report-matrix.json");
my $hb = host_bench("$fx/host-bench.json");

# ---- data ----
my $dir = tempdir(CLEANUP => 1);
is(host_bench("$dir/host-bench.json"), undef, 'no host-bench.json: undef (not measured)');
is($hb->{host_kernel}, '6.18.44-fc-v1272', 'the fixture read: its host kernel');
spew("$dir/cut.json", substr(slurp("$fx/host-bench.json"), 0, 300));
ok(!eval { host_bench("$dir/cut.json"); 1 }, 'a truncated host-bench.json is an error');
like($@, qr/cut\.json is not valid JSON \(.+\): fix it or remove it/, '... naming the file');
spew("$dir/empty.json", '');
ok(!eval { host_bench("$dir/empty.json"); 1 }, 'an empty one too');
like($@, qr/empty\.json is empty: not a host-bench\.json/, '... saying what it should be');
spew("$dir/matrix.json", '{"variants":{}}');
ok(!eval { host_bench("$dir/matrix.json"); 1 }, 'JSON that is not a host-bench.json too');
like($@, qr/not a host-bench\.json: no "host_kernel" or no "data" list/, '... saying why');
is_deeply([keys %{host_matrix($hb)->{variants}}], ['host'], 'its data as a matrix: one variant "host"');

# ---- analysis ----
is(VMAB::Report::Goals::host_vs_guest($m, undef), undef, 'no host-bench.json: no comparison');
my $x = VMAB::Report::Goals::host_vs_guest($m, $hb);
is_deeply({ map { $_ => $x->{$_} } grep { $_ ne 'rows' } keys %$x },
	  { host_kernel => '6.18.44-fc-v1272', generated => '2026-12-07T11:12:08Z', machine => 'x86_64',
	    cpu => 'AMD EPYC', cores => 2, swap => 'off', lru => 'classic' }, 'the host, as host-bench.json names it');
is_deeply([map { [$_->{figure}, $_->{design}, $_->{threads}] } grep { $_->{bench} eq 'churn' } @{$x->{rows}}],
	  [(map { my $t = $_; (['ratio_to_keep', 'dontneed', $t],
		map { (['ratio_to_dontneed', $_, $t], ['ratio_to_keep', $_, $t]) } qw(munmap madv_free vma_flag)) } 1, 2)],
	  'churn: every figure the host measured, per thread count and design (vrange skipped on the host, ' .
	  'keep / DONTNEED the inverse of DONTNEED / keep)');
my @cells = qw(madv-free/swap-classic madv-free/noswap-classic both/swap-classic both/noswap-classic swapless/noswap-classic);
is_deeply([grep { $_->{design} eq 'madv_free' && ($_->{threads} // 0) == 1 } @{$x->{rows}}],
	  [{ bench => 'churn', figure => 'ratio_to_dontneed', design => 'madv_free', threads => 1, host => 1.55929,
	     guest => 2.198, guest_min => 1.932, guest_max => 2.281, n => 5, cells => \@cells, ratio => 1.55929 / 2.198 },
	   { bench => 'churn', figure => 'ratio_to_keep', design => 'madv_free', threads => 1, host => 0.0204452,
	     guest => 0.878, guest_min => 0.853, guest_max => 0.927, n => 5, cells => \@cells, ratio => 0.0204452 / 0.878 }],
	  'MADV_FREE at 1 thread: the host, the guests\' median, range and cells, host / guest');
my @disc = grep { $_->{bench} eq 'discardable' } @{$x->{rows}};
is(scalar @disc, 16, 'the discardable cache: 2 designs x (3 sizes x lock, unlock + 2 answers)');
is_deeply([map { $_->{n} } @disc], [(0) x 16], '... none of them in the fixture matrix: no guest cell');

# A guest that measured the discardable cache: its latency beside the
# host's at the same size; its answers only under the same pressure.
{
	my %g = %$m;
	my $rec = sub { { kind => 'bench', bench => 'discardable', design => 'madv_free', @_ } };
	$g{variants} = { %{$m->{variants}},
		lean => { modes => { 'swap-classic' => { data => [
			$rec->(op => 'latency', size => 1 << 20, ns_lock => 5e7, ns_unlock => 1e6, cache_regenerated => 0),
			$rec->(op => 'cycles', pressure => 'madv_pageout', cache_regenerated => 700, cache_false_alarms => 0)] },
			'noswap-classic' => { data => [
			$rec->(op => 'latency', size => 1 << 20, ns_lock => 3e7, ns_unlock => 2e6, cache_regenerated => 0),
			$rec->(op => 'cycles', pressure => 'memory.reclaim', cache_regenerated => 500, cache_false_alarms => 1)] } } } };
	my @d = grep { $_->{bench} eq 'discardable' && $_->{design} eq 'madv_free' && $_->{n} }
		@{VMAB::Report::Goals::host_vs_guest(\%g, $hb)->{rows}};
	is_deeply([map { [@$_{qw(figure n guest guest_min guest_max)}, $_->{size} // $_->{pressure}, $_->{cells}] } @d],
		  [['ns_lock', 2, 3e7, 3e7, 5e7, 1 << 20, ['lean/swap-classic', 'lean/noswap-classic']],
		   ['ns_unlock', 2, 1e6, 1e6, 2e6, 1 << 20, ['lean/swap-classic', 'lean/noswap-classic']],
		   ['cache_regenerated', 1, 700, 700, 700, 'madv_pageout', ['lean/swap-classic']],
		   ['cache_false_alarms', 1, 0, 0, 0, 'madv_pageout', ['lean/swap-classic']]],
		  'the discardable cache: latency at the same size over both modes, answers under MADV_PAGEOUT only');
	is($d[0]{ratio}, 2487480 / 3e7, '... host / guest');
}

# analyse() carries it, computed from the same churn rows.
is_deeply(VMAB::Report::Goals::analyse($m, $hb)->{host}, $x, 'analyse($m, $hb)->{host}');
is(VMAB::Report::Goals::analyse($m)->{host}, undef, '... undef without host-bench.json');

# ---- render ----
my $md = report_md($m, tempdir(CLEANUP => 1), $hb);
like($md, qr/^Benchmarks natively on this host \(`make host-bench`\): kernel 6\.18\.44-fc-v1272, run 2026-12-07 11:12:08 UTC;/m,
     'the Variants area names the host kernel and when host-bench ran');
my ($churn) = $md =~ /^(### Allocator churn.*?)^### /ms;
like($churn, qr/^#### Guest \(TCG\) vs this host \(kernel 6\.18\.44-fc-v1272, 2026-12-07 11:12:08 UTC\)$/m,
     'the churn part has the table, under its heading');
like($churn, qr/^\| `madv_free` \/ DONTNEED, 1 thread \| 2\.20x \(1\.93x to 2\.28x, 5 cells\) \| 1\.56x \| 0\.71x \(-29%\) \|$/m,
     '... a figure: the guests\' median and range, the host\'s, how far it moves');
like($churn, qr/^\| `vma_flag` \/ DONTNEED, 2 threads \| [^|]+ \| 73\.86x \| 40\.25x \|$/m, '... no percentage beyond 2x');
like($md, qr/^### A discardable cache: the guests beside this host$/m, 'the discardable cache, measured on the host');
like($md, qr/^\| `droppable` lock, 256 MiB \| not measured in this run \| 805\.1 µs \| - \|$/m, '... not in the guests');
my $none = report_md($m, tempdir(CLEANUP => 1));
like($none, qr/^Benchmarks natively on this host \(`make host-bench`\): not measured in this run\.$/m,
     'without host-bench.json: not measured, in the Variants area');
like($none =~ /^(### Allocator churn.*?)^### /ms ? $1 : '', qr/^Guest \(TCG\) vs this host: not measured in this run/m,
     '... and in the churn part');
unlike($none, qr/discardable cache: the guests beside/, '... no discardable part');
my ($summary) = $md =~ /^(## Summary.*?)^## Contents/ms;
is($summary, ($none =~ /^(## Summary.*?)^## Contents/ms)[0], 'the Summary is the same with or without the host');
done_testing();
