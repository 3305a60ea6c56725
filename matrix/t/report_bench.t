# The benchmark section of the report, from a small fixture matrix:
# tables, plots, the accelerator, and each goal judged met or missed with why.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use VMAB::File qw(slurp);
use VMAB::Report::Bench;
use VMAB::Report qw(write_report);

sub mark {
	my ($design, $op, $size, $ns) = @_;
	return { kind => 'bench', bench => 'mark', prog => 'bench_mark', design => $design, op => $op,
		 size => $size, pages => $size / 4096, reps => 3, ns_median => $ns,
		 ns_per_page => $ns / ($size / 4096), ns_first => 2 * $ns,
		 ($op eq 'volatile' ? (vmas_added => 0) : ()) };
}

sub churn {
	my ($design, $threads, $rps, %x) = @_;
	return { kind => 'bench', bench => 'churn', prog => 'bench_churn', design => $design,
		 threads => $threads, records_per_s => $rps, iterations => 100,
		 ns_alloc_per_iter => 100, ns_copy_per_iter => 5e6, ns_search_per_iter => 1e4,
		 ns_free_per_iter => 2e5, faults_per_iter => 0, %x };
}

sub oom {
	my ($design, $ns, %x) = @_;
	return { kind => 'bench', bench => 'oom', prog => 'bench_oom', design => $design, rounds => 5,
		 pages_marked => 4096, hog_kb => 8192, ns_median => $ns, ns_min => $ns / 2, ns_max => 2 * $ns,
		 oom_kill => 5, pgscan_anon => 0, pages_discarded => 0, %x };
}

my $G = 1 << 30;
my @swap_data = (
	mark(qw(vrange volatile), 4096, 10_000), mark(qw(vrange volatile), $G, 200_000),
	mark(qw(vrange nonvolatile), 4096, 10_000), mark(qw(vrange nonvolatile), $G, 15_000),
	mark(qw(vrange nonvolatile_purged), 4096, 20_000), mark(qw(vrange nonvolatile_purged), $G, 9e8),
	mark(qw(vrange nonvolatile_after_purge), 4096, 10_000), mark(qw(vrange nonvolatile_after_purge), 1 << 26, 24_000),
	mark(qw(vrange getppid), 1 << 26, 6000),
	mark(qw(vrange refault_purged), 4096, 30_000), mark(qw(vrange refault_purged), $G, 7e9),
	mark(qw(vrange getppid), 4096, 300), mark(qw(vrange getppid), $G, 180_000),
	mark(qw(madv_free madv_free), 4096, 8_000), mark(qw(madv_free madv_free), $G, 1.5e8),
	mark(qw(dontneed dontneed), 4096, 9_000), mark(qw(dontneed dontneed), $G, 8e8),
	mark(qw(dontneed refault), 4096, 20_000), mark(qw(dontneed refault), $G, 1.1e10),
	churn('dontneed', 1, 1000, faults_per_iter => 128, ns_copy_per_iter => 8e6),
	churn('madv_free', 1, 1500, ratio_to_dontneed => 1.5, faults_per_iter => 0.1),
	churn('vrange', 1, 1800, ratio_to_dontneed => 1.8, purged_reuses => 0),
	churn('vrange_own_vma', 1, 2200, ratio_to_dontneed => 2.2, ratio_to_keep => 0.95),
	churn('vma_flag', 1, 1900, ratio_to_dontneed => 1.9),
	churn('keep', 1, 2400, ratio_to_dontneed => 2.4),
	churn('dontneed', 2, 1000),
	churn('madv_free', 2, 2500, ratio_to_dontneed => 2.5),
	churn('vrange', 2, 2000, ratio_to_dontneed => 2.0, ratio_to_madv_free => 0.75, rounds => 3,
	      ratio_min => 1.8, ratio_max => 2.2),
	{ kind => 'bench', bench => 'pressure', design => 'dontneed', churn_records_per_s => 900,
	  cache_ops_per_s => 400, cache_ops => 1600, cache_regenerated => 0, cache_wrong => 0, pswpout => 5000,
	  oom_kill => 0 },
	{ kind => 'bench', bench => 'pressure', design => 'vrange', churn_records_per_s => 1200,
	  cache_ops_per_s => 800, churn_ratio_to_dontneed => 1.333, cache_ratio_to_dontneed => 2,
	  cache_ops => 3200, cache_regenerated => 300, cache_wrong => 0, cache_pages_lost => 4800, memcg_pgvrange_purged => 4000,
	  swap_peak_kb => 0, memcg_pgmajfault => 2, oom_kill => 0 },
	oom('none', 10e6), oom('madv_free', 11e6, ratio_to_control => 1.1, pglazyfreed => 0),
	oom('vrange', 40e6, ratio_to_control => 4.0, pgvrange_purged => 0, pgscan_anon => 52_488, oom_kill => 4),
	{ kind => 'scenario', scenario => 'no_pressure', design => 'vrange' },	# not ours
);
my @noswap_data = (
	mark(qw(vrange volatile), 4096, 10_000), mark(qw(vrange volatile), 1 << 22, 11_000),
	{ kind => 'bench', bench => 'pressure', design => 'dontneed', churn_records_per_s => 100,
	  cache_ops_per_s => 0, cache_regenerated => 0, cache_wrong => 0, oom_kill => 1 },
);
my $m = {
	accelerator => 'tcg', generated => 'now', qemu_version => '7.2', host_kernel => 'h',
	source_version => '6.1.192',
	variants => { both => { outcome => 'PASS', modes => {
		'swap-classic' => { data => \@swap_data },
		'noswap-classic' => { data => \@noswap_data } } } },
};

my $dir = tempdir(CLEANUP => 1);
my $md = VMAB::Report::Bench::section($m, $dir);

like($md, qr/Accelerator: \*\*TCG\*\*/, 'accelerator stated');
like($md, qr/same boot/, 'ratios are same-boot');
like($md, qr/^#### both, swap-classic$/m, 'mark table from the mode with the widest sweep');
like($md, qr/^\| 4 KiB \| 9\.0 µs \| 8\.0 µs \| 16\.0 µs \| 10\.0 µs \| 10\.0 µs \| 20\.0 µs \|/m, 'mark row at 4 KiB');
like($md, qr/^\| 1 GiB \| 800\.0 ms \| 150\.0 ms \| 300\.0 ms \| 200\.0 µs \| 15\.0 µs \| 900\.0 ms \|/m, 'mark row at 1 GiB');
like($md, qr/Goal met in both as a ratio to the null call \(0\.03x once the getppid\(\) control is divided out\): vrange\(VOLATILE\) costs 20\.00x more at 1 GiB than at 4 KiB \(cost ~ size\^0\.24; 0\.76 ns a page at 1 GiB, against 572\.2 ns a page for MADV_FREE, whose cost ~ size\^0\.79\)/,
     'mark goal missed, with the growth and the contrast with MADV_FREE');
like($md, qr/Its largest step is 20\.00x, from 10\.0 µs at 4 KiB to 200\.0 µs at 1 GiB; from 1 GiB to 1 GiB it stays within 1\.00x\./,
     'where the growth happens');
like($md, qr/The call added 0 VMAs at every size/, 'the VMA counter shown');
like($md, qr/The control, a getppid\(\) timed at the same point, goes from 0\.3 µs to 180\.0 µs \(600\.00x\) across the same step, so the step is what any system call costs/,
     'the control explains the step');
like($md, qr/vrange\(VOLATILE\) mark cost, both swap-classic: 20\.00x at 1 GiB vs 4 KiB \(goal flat, within 2x as a ratio to the null call: met\)/,
     'mark goal in the summary');
# Unmark, nothing purged: 1.50x over the sizes, the control 600x: met (vrange patch 13).
# After a purge of the range: 2.40x from 4 KiB to 64 MiB, the control 20x over
# the same sizes: met as a ratio (vrange patch 20).
like($md, qr/vrange\(NONVOLATILE\) with nothing purged, both swap-classic: 1\.50x at 1 GiB vs 4 KiB, 0\.00x divided by the getppid\(\) control; after a purge of the range, 2\.40x at 64 MiB vs 4 KiB, 0\.12x divided by the control \(goal within 2x as a ratio to the null call: met\)/,
     'unmark goal in the summary, after a purge too, each against the control over its own sizes');
like($md, qr/After a purge of the same range, which the unmark that reports it walks once, the next unmark with nothing purged grows 2\.40x from 4 KiB to 64 MiB, 0\.12x as a ratio to the control\. What it cost before old vrange patch 20 \(now in vrange 1-3, 5 and 7 of 12\): `docs\/design\.md`/,
     'the unmark after a purge in the text, pointing at the figure from before');
unlike($md, qr/281\.33x/, 'the figures from before are no longer in the report code');
like($md, qr/A getppid\(\) timed at the same point grows 600\.00x over the same sizes: the growth is the emulated system call/,
     'the control in the summary');

like($md, qr/^\| swap-classic \| 1 \| 1000 \| - \| 1\.50x \| 1\.80x \| 2\.20x \| 1\.90x \| 2\.40x \| 1\.20x \|$/m, 'churn row, 1 thread');
like($md, qr/^- Churn against keep \(never giving memory back\), both swap-classic 1 thread: MADV_FREE 62%, vrange 75%, vrange with a VMA per chunk 95% \(goal at least 90% for one design: met\)\. The VMA split and merge alone \(the vma_flag control\) reach 79%\.$/m,
     'the keep goal: each design as a share of keep (the median of per-round shares where given), with the control');
like($md, qr/^\| vrange_own_vma \| 95% \|/m, 'where the time goes: the per-round share of keep preferred');
like($md, qr/^\| swap-classic \| 2 \| 1000 \| - \| 2\.50x \| 2\.00x \(1\.8-2\.2\) \| - \| - \| - \| 0\.75x \|$/m,
     'churn row, 2 threads: per-round ratios and their range preferred');
like($md, qr/MADV_FREE vs MADV_DONTNEED churn, both swap-classic 1 thread: 1\.50x \(goal 2x: \*\*missed\*\*\)\. Why: per iteration MADV_DONTNEED takes 128\.0 page faults/,
     'MADV_FREE goal missed at 1 thread, with the fault counter');
like($md, qr/MADV_FREE vs MADV_DONTNEED churn, both swap-classic 2 threads: 2\.50x \(goal 2x: met\)\./, 'met at 2 threads');
like($md, qr/vrange vs MADV_FREE churn, both swap-classic 1 thread: 1\.20x \(goal >= 1x: met\)\./, 'vrange goal met at 1 thread');
like($md, qr/vrange vs MADV_FREE churn, both swap-classic 2 threads: 0\.75x \(goal >= 1x: \*\*missed\*\*\)\. Why: vrange spends/,
     'vrange goal missed at 2 threads, with where the time goes');
like($md, qr/^\| vrange \| 75% \| 0\.1 µs \| 5\.0 ms \| 10\.0 µs \| 200\.0 µs \| 0\.0 \|/m, 'where the time goes, with the share of keep');
like($md, qr/^\| vma_flag \| 79% \|/m, '... and the VMA-flag control');
like($md, qr/`vma_flag` is a control/, '... which the text explains');

like($md, qr/^\| swap-classic \| dontneed \| 900 \| - \| 400 \| - \| 0\/1600 \| 0 \| - \| - \| - \| - \| 5000 pages \| - \| 0 \|$/m, 'pressure row, vmstat swap counter');
like($md, qr/^\| swap-classic \| vrange \| 1200 \| 1\.33x \| 800 \| 2\.00x \| 300\/3200 \| 0 \| 4800 \| - \| 4000 \| - \| peak 0 kB \| 2 \| 0 \|$/m,
     'pressure row, memcg counters');
like($md, qr/^\| noswap-classic \| dontneed \| 100 \| - \| 0\.0 \| - \| 0\/\? \| 0 \| - \| - \| - \| - \| - \| - \| \*\*1\*\* \|$/m, 'OOM kill shown');
like($md, qr/^\| both \| swap-classic \| none \| - \| 10\.0 ms \(5\.0 ms-20\.0 ms\) \| - \| 0 \| 5\/5 \| 0 \| - \|$/m,
	'OOM row of the control');
like($md, qr/^\| both \| swap-classic \| vrange \| 4096 \| 40\.0 ms \(20\.0 ms-80\.0 ms\) \| 4\.00x \| \*\*52488\*\* \| \*\*4\/5\*\* \| 0 \| 0 \|$/m,
	'OOM row: an anon scan and a missing kill stand out');
like($md, qr/^- An OOM without swap next to lazily freed memory, both swap-classic: 1\.10x the time with nothing marked, pgscan_anon 0 \(goal within 1\.25x, no anon scan: met\)\.$/m,
	'OOM goal met');
like($md, qr/^- An OOM without swap next to volatile memory, both swap-classic: 4\.00x the time with nothing marked, pgscan_anon 52488 \(goal within 1\.25x, no anon scan: \*\*missed\*\*\)\.$/m,
	'OOM goal missed');
like($md, qr/What it took before old vrange patches 16 to 18 \(now in vrange 6\/12\): `docs\/design\.md`, "Figures before the fixes"/,
	'the OOM before patches 16 to 18: where to read it');
unlike($md, qr/188 ms/, '... not printed from code');
unlike($md, qr/no_pressure/, 'scenario data left alone');

SKIP: {
	skip "gnuplot is not installed", 5 unless grep { -x "$_/gnuplot" } split /:/, $ENV{PATH};
	for my $plot (qw(bench-mark-both bench-churn-both bench-pressure-cache-both bench-pressure-churn-both bench-refault-both)) {
		ok(-s "$dir/$plot.svg" && $md =~ /\]\(\Q$plot\E\.svg\)/, "$plot.svg drawn and referenced");
	}
}
{
	local $VMAB::Report::Plot::GNUPLOT = '/nonexistent/gnuplot';
	my $d2 = tempdir(CLEANUP => 1);
	ok(!eval { VMAB::Report::Bench::section($m, $d2); 1 }, 'a plot that cannot be drawn fails the benchmarks');
	like($@, qr/^plot bench-mark-both: \/nonexistent\/gnuplot not found$/, '... as it fails the summary, saying which plot and why');
}

my $empty = VMAB::Report::Bench::section({ accelerator => 'kvm', variants => {} }, $dir);
like($empty, qr/Accelerator: \*\*KVM\*\*/, 'KVM stated');
like($empty, qr/No mark figures/, 'no figures: said');
like($empty, qr/No figure in this run bears on the goals/, 'no goals judged without figures');

my $rdir = tempdir(CLEANUP => 1);
write_report($m, $rdir);
my $report = slurp("$rdir/report.md");
like($report, qr/## Benchmarks\n\nAccelerator: \*\*TCG\*\*/, 'the report carries the section');
unlike($report, qr/VMAB::Report::Bench (?:failed|is not available)/, 'the section did not fail');
done_testing;
