#!/usr/bin/perl
# A realistic matrix.json for the report's host tests and for comparing
# the report's figures before and after a change to the report code:
# five variants, their run-time modes, every kind of "# @data" record the
# report reads, with figures drawn from a fixed seed (the same file every
# time).  Usage: tools/make-report-fixture.pl > matrix/t/fixtures/report-matrix.json
use strict;
use warnings;
use JSON::PP;

srand(20261207);
sub r { my ($lo, $hi) = @_; return $lo + int(rand($hi - $lo + 1)) }
sub f { my ($lo, $hi) = @_; return 0 + sprintf('%.3f', $lo + rand($hi - $lo)) }

my %VARIANTS = (
	none => { modes => [qw(swap-classic swap-mglru noswap-classic noswap-mglru)], designs => [] },
	vrange => { modes => [qw(swap-classic swap-mglru noswap-classic noswap-mglru)], designs => ['vrange'] },
	'madv-free' => { modes => [qw(swap-classic swap-mglru noswap-classic noswap-mglru)], designs => ['madv_free'] },
	both => { modes => [qw(swap-classic swap-mglru noswap-classic noswap-mglru)], designs => [qw(vrange madv_free)] },
	swapless => { modes => [qw(noswap-classic noswap-mglru)], designs => [qw(vrange madv_free)] },
);
my @SCN = qw(no_pressure memcg_reclaim memcg_limit madv_pageout global_pressure write_after_mark
	read_after_mark fork_cow thp mremap mprotect mlock_after_mark image_cache both_designs);

sub scenario {
	my ($design, $scn, $swap) = @_;
	my $marked = $scn eq 'write_after_mark' ? 512 : 2048;
	my $lost = $scn eq 'no_pressure' ? 0 : $design eq 'madv_free' && $scn eq 'write_after_mark' ? 256
		: $design eq 'madv_free' && !$swap && $scn eq 'global_pressure' ? r(1500, 2048) : r(1900, 2048);
	my %d = (prog => 'scenario_test', kind => 'scenario', scenario => $scn, design => $design,
		pressure => $scn, pages_marked => $marked, pages_discarded => $lost, lost_nonvolatile_bytes => 0,
		pages_garbage => 0, detect => $lost ? ($design eq 'vrange' ? 'purged_flag' : 'zero_page') : undef,
		read_returns => $lost ? ($design eq 'vrange' ? 'sigbus' : 'zero') : undef);
	delete @d{qw(detect read_returns)} unless $lost;
	if ($design eq 'vrange' && $lost) { $d{sigbus_addr_code_right} = 1 }
	if ($scn =~ /^(memcg_reclaim|madv_pageout|memcg_limit|global_pressure|fork_cow|thp|mremap|mprotect|write_after_mark|read_after_mark)$/ && $lost) {
		$d{kernel_read_into} = $design eq 'vrange' ? 'efault' : 'ok';
		$d{kernel_write_from} = $design eq 'vrange' ? 'efault' : 'ok';
	}
	if ($scn eq 'memcg_reclaim' || $scn eq 'madv_pageout') {
		$d{counter_discarded} = $lost;
		$d{memcg_counter_discarded} = $design eq 'vrange' ? -1 : $lost;
		$d{nr_lazyfree_delta} = $design eq 'vrange' ? undef : -$lost;
		$d{rss_kb_before} = 16384; $d{rss_kb_after} = 16384 - 4 * $lost;
		$d{memcg_anon_delta_kb} = -4 * $lost; $d{memcg_file_delta_kb} = $design eq 'vrange' ? 0 : r(-40, 0);
	}
	if ($scn eq 'memcg_reclaim') {
		$d{first_pass_discarded} = $swap ? r(1800, 2048) : $lost;
		$d{first_pass_keep_swapped_kb} = $swap ? r(0, 400) : 0;
	}
	if ($scn eq 'no_pressure') {
		%d = (%d, pages_intact => $marked, purged => 0, chunk_kb => 64, ns_mark_per_mib => r(90_000, 250_000),
			ns_mark_per_call => r(5000, 20000), ns_read_per_mib => r(300_000, 500_000),
			ns_take_back_per_mib => $design eq 'vrange' ? r(100_000, 300_000) : r(30_000, 60_000));
		if ($design eq 'madv_free') {
			$d{memcg_lazyfree_delta_kb} = 8192 - r(0, 64); $d{counter_marked} = 2048; $d{nr_lazyfree_delta} = 2048;
		}
		$d{"mark_delta_kb_$_"} = r(-8192, 8192) for qw(inactive_anon active_anon inactive_file active_file);
	}
	%d = (%d, hog_oom_killed => r(0, 1)) if $scn =~ /^(memcg_limit|global_pressure)$/;
	%d = (%d, written_pages => 256, written_kept => $design eq 'vrange' ? 0 : 256, written_discarded => $design eq 'vrange' ? 256 : 0,
		unwritten_discarded => 256) if $scn eq 'write_after_mark';
	%d = (%d, read_before_pressure_intact => 1) if $scn eq 'read_after_mark';
	%d = (%d, child_lost_bytes => 0, child_inherits_volatile => 0, parent_discarded_exclusive => 1024,
		parent_discarded_shared => 0) if $scn eq 'fork_cow';
	%d = (%d, thp_kb => 4096, thp_kb_after_mark => $design eq 'vrange' ? 0 : 4096) if $scn eq 'thp';
	%d = (%d, discarded_before_move => 1024, smaps_vo_after_move => 1) if $scn eq 'mremap';
	%d = (%d, vmas_split => 1, vmas_delta_after_unmark => 0, readonly_read_sigbus => 0) if $scn eq 'mprotect';
	%d = (%d, mlock_errno => 0, pages_discarded => 0) if $scn eq 'mlock_after_mark';
	if ($scn eq 'image_cache') {
		%d = (%d, cache_objects => 256, cache_object_kb => 32, cache_regenerated => r(150, 256), cache_wrong => 0,
			objects_paged_out => r(150, 256), ns_fetch_all => r(2e7, 6e7), pages_marked => 2048);
		$d{detect} = $design eq 'vrange' ? 'purged_flag' : 'canary';
	}
	%d = (%d, discarded_after_unmark => 0) if $scn eq 'both_designs';
	delete $d{$_} for grep { !defined $d{$_} } keys %d;
	return \%d;
}

sub mark_data {
	my ($designs, $mode) = @_;
	my @sizes = map { 1 << $_ } 12, 16, 20, 24, 26, 28, 30;
	my @d;
	my %ops = (dontneed => [qw(dontneed refault)], madv_free => [qw(madv_free refault)],
		vrange => [qw(volatile nonvolatile nonvolatile_purged nonvolatile_after_purge volatile_before_purge
			getppid refault refault_purged)]);
	for my $design ('dontneed', @$designs) {
		for my $op (@{$ops{$design}}) {
			my $base = r(2000, 20000);
			my $k = $op =~ /^(volatile|nonvolatile|getppid|volatile_before_purge|nonvolatile_after_purge)$/ ? 0.15 : 0.9;
			for my $s (@sizes) {
				next if $op eq 'nonvolatile_after_purge' && $s > 1 << 26;
				my $ns = int($base * ($s / 4096) ** $k * f(0.9, 1.1));
				push @d, { kind => 'bench', bench => 'mark', prog => 'bench_mark', design => $design, op => $op,
					size => $s, pages => $s / 4096, reps => 3, ns_median => $ns,
					ns_per_page => 0 + sprintf('%.2f', $ns / ($s / 4096)), ns_first => 2 * $ns,
					($op eq 'volatile' ? (vmas_added => 0) : ()) };
			}
		}
	}
	return @d;
}

sub churn_data {
	my ($designs) = @_;
	my @d;
	for my $th (1, 2) {
		my $dn = r(800, 1200);
		my %rps = (dontneed => $dn, munmap => int($dn * f(0.8, 1.0)), keep => int($dn * f(2.2, 2.6)),
			vma_flag => int($dn * f(1.6, 2.0)));
		$rps{madv_free} = int($dn * f(1.4, 2.6)) if grep { $_ eq 'madv_free' } @$designs;
		if (grep { $_ eq 'vrange' } @$designs) {
			$rps{vrange} = int($dn * f(1.5, 2.2));
			$rps{vrange_own_vma} = int($dn * f(2.0, 2.4));
		}
		for my $design (sort keys %rps) {
			my %x = (kind => 'bench', bench => 'churn', prog => 'bench_churn', design => $design, threads => $th,
				records_per_s => $rps{$design}, iterations => 1000, rounds => 5,
				ns_alloc_per_iter => r(100, 50000), ns_copy_per_iter => r(4e6, 9e6), ns_search_per_iter => r(5e3, 2e4),
				ns_free_per_iter => r(1e4, 3e5), faults_per_iter => $design =~ /dontneed|munmap/ ? f(100, 130) : f(0, 2));
			if ($design ne 'dontneed') {
				$x{ratio_to_dontneed} = 0 + sprintf('%.3f', $rps{$design} / $dn * f(0.97, 1.03));
				$x{ratio_min} = 0 + sprintf('%.2f', $x{ratio_to_dontneed} * 0.9);
				$x{ratio_max} = 0 + sprintf('%.2f', $x{ratio_to_dontneed} * 1.1);
			}
			$x{ratio_to_keep} = 0 + sprintf('%.3f', $rps{$design} / $rps{keep}) if $design =~ /vrange|madv_free|vma_flag/;
			$x{ratio_to_madv_free} = 0 + sprintf('%.3f', $rps{vrange} / $rps{madv_free})
				if $design eq 'vrange' && $rps{madv_free};
			$x{pglazyfree} = r(1e5, 2e5) if $design eq 'madv_free';
			$x{pgvrange_purged} = r(0, 100) if $design =~ /^vrange/;
			$x{purged_reuses} = r(0, 10) if $design =~ /^vrange/;
			push @d, \%x;
		}
	}
	return @d;
}

sub pressure_data {
	my ($designs, $swap) = @_;
	my @d;
	for my $design ('dontneed', @$designs) {
		my %x = (kind => 'bench', bench => 'pressure', prog => 'bench_pressure', design => $design,
			churn_records_per_s => r(500, 1500), cache_ops_per_s => r(200, 900), cache_ops => r(1000, 4000),
			cache_regenerated => $design eq 'dontneed' ? 0 : r(100, 400), cache_wrong => 0,
			cache_pages_lost => $design eq 'dontneed' ? 0 : r(1000, 5000), memcg_pgsteal => r(1e4, 5e4),
			memcg_pgmajfault => r(0, 50), oom_kill => 0);
		$x{churn_ratio_to_dontneed} = f(1, 2) if $design ne 'dontneed';
		$x{cache_ratio_to_dontneed} = f(1, 3) if $design ne 'dontneed';
		$x{pswpout} = r(0, 9000) if $swap;
		$x{swap_peak_kb} = 0 unless $swap;
		$x{memcg_pgvrange_purged} = r(1000, 5000) if $design eq 'vrange';
		$x{pglazyfreed} = r(1000, 5000) if $design eq 'madv_free';
		push @d, \%x;
	}
	return @d;
}

sub oom_data {
	my ($designs) = @_;
	my @d;
	my $none = r(8e6, 12e6);
	for my $design ('none', @$designs) {
		my $r = $design eq 'none' ? undef : f(0.85, 1.3);
		my $ns = $r ? int($none * $r) : $none;
		push @d, { kind => 'bench', bench => 'oom', prog => 'bench_oom', design => $design, rounds => 5,
			pages_marked => 2048, hog_kb => 8192, ns_median => $ns, ns_min => int($ns * 0.8), ns_max => int($ns * 1.3),
			oom_kill => 5, pgscan_anon => 0, pages_discarded => 0, (defined $r ? (ratio_to_control => $r) : ()),
			($design eq 'vrange' ? (pgvrange_purged => 0) : $design eq 'madv_free' ? (pglazyfreed => 0) : ()) };
	}
	return @d;
}

sub jemalloc_data {
	my ($designs) = @_;
	my @d;
	for my $cg ('none', 'memcg') {
		my $f = r(20000, 40000);
		my $l = int($f * f(1.0, 1.6));
		push @d, { kind => 'bench', bench => 'jemalloc', prog => 'bench_jemalloc', cgroup => $cg, config => 'lazy',
			ops_per_s => $l, ratio_to_forced => 0 + sprintf('%.3f', $l / $f), corrupted => 0,
			pglazyfree => (grep { $_ eq 'madv_free' } @$designs) ? r(1e5, 9e5) : 0, pglazyfreed => $cg eq 'memcg' ? r(0, 1e4) : 0,
			($cg eq 'memcg' ? (memory_max => '64M') : ()) };
		push @d, { kind => 'bench', bench => 'jemalloc', prog => 'bench_jemalloc', cgroup => $cg, config => 'forced',
			ops_per_s => $f, corrupted => 0, pglazyfree => 0, ($cg eq 'memcg' ? (memory_max => '64M') : ()) };
	}
	return @d;
}

my %m = (generated => 'Mon Dec  7 03:00:00 2026', accelerator => 'tcg', qemu_version => '7.2.11',
	host_kernel => '6.12.0-test', source_version => '6.1.158-1', tarball => '/usr/src/linux-source-6.1.tar.xz');
for my $v (sort keys %VARIANTS) {
	my $c = $VARIANTS{$v};
	my (%modes, @results);
	for my $mode (@{$c->{modes}}) {
		my $swap = $mode =~ /^swap/;
		my @data;
		for my $design (@{$c->{designs}}) {
			for my $scn (@SCN) {
				next if $scn eq 'both_designs' && @{$c->{designs}} < 2;
				push @data, scenario($design, $scn, $swap);
				push @results, { variant => $v, mode => $mode, test => "scenario_test/scn.$design.$scn", status => 'pass' };
			}
			push @data, { prog => 'reclaim_test', kind => 'reclaim_order', design => $design, unmarked_pages => 2048,
				marked_pages => 2048, marked_taken => r(1990, 2048), unmarked_swapped => $swap ? r(0, 20) : 0 }
				if $swap;
		}
		push @data, { prog => 'reclaim_test', kind => 'noswap_oom', pgscan_anon_without_volatile => 0,
			pgscan_anon_with_volatile => 0 } if !$swap && grep { $_ eq 'vrange' } @{$c->{designs}};
		push @data, mark_data($c->{designs}, $mode) if $mode =~ /classic/;
		push @data, churn_data($c->{designs}) if $mode =~ /classic/;
		push @data, pressure_data($c->{designs}, $swap);
		push @data, oom_data($c->{designs}) if !$swap;
		push @data, jemalloc_data($c->{designs});
		if ($mode eq $c->{modes}[0]) {
			push @data, map { { prog => 'stressng', kind => 'stressng', stressor => $_, rc => 0,
				bogo_ops_per_s => f(100, 5000) } } qw(madvise vm mmap mremap fork userfaultfd ksm);
		}
		push @results, map { { variant => $v, mode => $mode, test => "base_test/$_", status => 'pass' } } qw(mmap_basic mprotect_basic);
		push @results, { variant => $v, mode => $mode, test => 'vrange_test/enosys', status => 'skip',
			reason => 'needs CONFIG_VRANGE' } unless grep { $_ eq 'vrange' } @{$c->{designs}};
		$modes{$mode} = { data => \@data, programs => { scenario_test => { rc => 0, ms => r(10000, 90000), planned => 30, ran => 30,
			clocksource => 'tsc' } } };
	}
	$m{variants}{$v} = { outcome => 'PASS', why => [], splats => [], problems => [], kernel_release => '6.1.158-vmab',
		run_at => 'Mon Dec  7 02:' . sprintf('%02d', r(0, 59)) . ':00 2026', clocksource => 'tsc', clocksources => ['tsc'],
		phases => { config => r(5, 30), build => r(300, 900), boot => r(150, 300) },
		results => \@results, modes => \%modes };
}
print JSON::PP->new->canonical->encode(\%m) . "\n";
