package VMAB::Report::Goals;
# The report's analysis layer: each goal computed once from matrix.json,
# as plain structures (its figure, threshold, verdict and the cells it
# came from) that the summary and the benchmark section both format, and
# the one table of the thresholds.  Nothing here formats text.
#   analyse($m[, $host_bench]) -> { churn => [churn_rows], sweeps => [mark_sweeps, each with its mark and
#       unmark goal], oom => [oom_rows], host => host_vs_guest, first => { design => first_reclaim },
#       accounting => accounting_agreement, swapless => swapless_totals, safety => safety (of the scenario
#       runs), cache => { design => image_cache }, marking => { design => marking } }; keep_shares,
#       op_growth and oom_vs_none take
#       it (or the matrix)
#   first_pass(\@scenario_data, $design) -> { threshold, runs => [cells],
#       n, share, taken, swapped_kb, marked, met }          (undef: no runs)
#   first_reclaim($m, \@scenario_data, $design) -> first_pass, or for a
#       design that is no variant of scenario_test (VMAB::Designs
#       no_scenarios) the same from reclaim_test, THP off, with source
#   drop_thp, drop_write, drop_accounting, drop_swapless ($m, $design) ->
#       suite/droppable_test.c's figures (undef: no runs), below
#   churn_rows($m) -> ({ variant, mode, threads, by => {design => datum},
#       ratio => {design => x DONTNEED}, free, vrange_vs_free, keep => {design
#       => share of keep, each design's once}, control (vma_flag's) }, ...) in report order
#   keep_shares($m, $design) -> { threshold, shares => [...], n, share, met } | undef
#   mark_sweeps($m) -> ({ variant, mode, t => {design}{op}{size} => datum,
#       data => [its records], growth => {design}{op} => growth_of }, ...):
#       per variant, its widest mode
#   mark_goal($sweep), unmark_goal($sweep) -> the flat-cost goal of one
#       variant's sweep (undef: not timed)
#   op_growth($m, $design, $op) -> { growth, adjusted, n, n_adjusted, lo => [sizes], hi => [sizes] } | undef
#   oom_rows($m) -> ({ variant, mode, design, x => datum, ratio, scan, met }, ...)
#   oom_vs_none($m, $design) -> { threshold, ratios, n, ratio, within } | undef
#   host_vs_guest($m, $host_bench[, \@churn_rows]) -> undef without
#       host-bench.json (not measured), else { host_kernel, generated,
#       machine, cpu, cores, swap, lru, rows => [{ bench, figure, the keys
#       that name its cell (design, threads | op, size | pressure), host,
#       guest (the median over the guest cells of the same keys), guest_min,
#       guest_max, n, cells => ["variant/mode", ...], ratio (host / guest) }] }
use strict;
use warnings;
use Exporter 'import';
use List::Util qw(min max sum);
use VMAB::Report::Data qw(of ordered with_seen collect data_of_kind all_data columns reclaim_order dropped median where
	host_matrix @VARIANT_ORDER @MODE_ORDER);
use VMAB::Variants qw(mode_traits);
use VMAB::Designs qw(design);

our @EXPORT_OK = qw(%THRESHOLD accounting_runs counted swapless_runs lost_alone @SWAPLESS_SCN);

# Every threshold the report judges by, each the number the guest asserts
# or the contract states (matrix/t/goals.t checks that they agree):
our %THRESHOLD = (
	first_taken => 0.95,	# SPEC 9; suite/reclaim_test.c: taken >= 95/100 of the marked pages
	first_swapped => 0.05,	# SPEC 9; suite/reclaim_test.c: swapped <= 5/100 of the unmarked
	keep => 0.90,		# SPEC 9: churn at 90% of never giving memory back, for one design
	flat => 2,		# SPEC 4.5: 1 GiB within 2x of 4 KiB, as a ratio to a null call
	free => 2,		# MADV_FREE records/s >= 2x MADV_DONTNEED's on churn
	vrange_vs_free => 1,	# vrange records/s >= MADV_FREE's on churn
	oom => 1.25,		# suite/bench_oom.c: OOM time next to marked memory / none
);

# The designs judged against keep, and how the goals name them.
our @KEEP_DESIGNS = (['madv_free', 'MADV_FREE'], ['vrange', 'vrange'],
	['vrange_own_vma', 'vrange with a VMA per chunk'], ['droppable', 'MAP_DROPPABLE']);
# The benchmarks' designs, in their tables' order; a design the run has
# beyond these (C's, once measured) follows them (bench_designs).
our @CHURN_DESIGNS = qw(dontneed munmap madv_free vrange vrange_own_vma vma_flag keep);
our @PRESSURE_DESIGNS = qw(dontneed madv_free vrange);
our @OOM_DESIGNS = qw(none madv_free vrange);

# bench_designs($m, $bench, \@base) -> @base and any other design of that benchmark
sub bench_designs {
	my ($m, $bench, $base) = @_;
	my $c = collect($m, $bench);
	return with_seen($base, map { $_->{design} // () } map { @$_ } map { values %$_ } values %$c);
}

sub ratio { my ($a, $b) = @_; return defined $a && defined $b && $b > 0 ? $a / $b : undef }

# ---- reclaim of exactly the marked size (SPEC 9) ----

sub first_pass {
	my ($data, $design) = @_;
	my @fp = grep { mode_traits($_->{mode})->{swap} && ($_->{d}{pages_marked} // 0) > 0 &&
			defined $_->{d}{first_pass_discarded} } of($data, $design, 'memcg_reclaim')
		or return undef;
	return pass_of(map { { variant => $_->{variant}, mode => $_->{mode}, taken => $_->{d}{first_pass_discarded},
			       marked => $_->{d}{pages_marked}, swapped_kb => $_->{d}{first_pass_keep_swapped_kb},
			       share => $_->{d}{first_pass_discarded} / $_->{d}{pages_marked} } } @fp);
}

# The goal over cells { variant, mode, taken, marked, swapped_kb, share }.
sub pass_of {
	my @cells = @_;
	my $t = $THRESHOLD{first_taken};
	return { threshold => $t, runs => \@cells, n => scalar @cells,
		 share => median(map { $_->{share} } @cells), taken => median(map { $_->{taken} } @cells),
		 swapped_kb => median(map { $_->{swapped_kb} } @cells), marked => $cells[0]{marked},
		 met => scalar(grep { $_->{share} >= $t } @cells) };
}

# suite/reclaim_test.c's records of THP off with swap on: the same test of
# every design (its unmarked_swapped in 4 KiB pages, pswpout).
sub first_order {
	my ($m, $design) = @_;
	my @ro = grep { mode_traits($_->{mode})->{swap} && ($_->{d}{marked_pages} // 0) > 0 && defined $_->{d}{marked_taken} }
		reclaim_order($m, $design, 'off') or return undef;
	my $g = pass_of(map { my $d = $_->{d}; { variant => $_->{variant}, mode => $_->{mode}, taken => $d->{marked_taken},
		marked => $d->{marked_pages}, share => $d->{marked_taken} / $d->{marked_pages},
		swapped_kb => defined $d->{unmarked_swapped} ? 4 * $d->{unmarked_swapped} : undef } } @ro);
	return { %$g, source => 'suite/reclaim_test.c' };
}

sub first_reclaim {
	my ($m, $data, $design) = @_;
	return (design($design) // {})->{no_scenarios} ? first_order($m, $design) : first_pass($data, $design);
}

# ---- design C's own tests (suite/droppable_test.c): the figures A and B's
# scenarios give, where it has them ----

# Two huge pages of a droppable mapping, MADV_PAGEOUT: { dropped, pages,
# thp_kb (mapped huge before), n }, medians.
sub drop_thp {
	my @t = dropped($_[0], $_[1], 'thp') or return undef;
	return { dropped => median(map { $_->{d}{pages_discarded} } @t), pages => $t[0]{d}{pages},
		 thp_kb => median(map { $_->{d}{thp_kb} } @t), n => scalar @t };
}

# Every page written (dirty), then MADV_PAGEOUT: { kept (written pages not
# dropped, median), pages, n }.
sub drop_write {
	my @w = grep { defined $_->{d}{pages} && defined $_->{d}{pages_discarded} }
		dropped($_[0], $_[1], 'dirty_dropped_not_swapped') or return undef;
	return { kept => median(map { $_->{d}{pages} - $_->{d}{pages_discarded} } @w), pages => $w[0]{d}{pages},
		 n => scalar @w };
}

# memory.stat on writing a mapping, then memory.reclaim of its size: { n,
# still (runs whose memory.stat pglazyfreed moved by 0), pages, and the
# medians dropped, anon_kb, file_lru_kb, anon_lru_kb }.
sub drop_accounting {
	my @a = dropped($_[0], $_[1], 'memcg_accounting') or return undef;
	my %med = map { my $k = $_->[1]; ($_->[0] => median(map { $_->{d}{$k} } @a)) } [dropped => 'pages_discarded'],
		[anon_kb => 'memcg_anon_delta_kb'], [file_lru_kb => 'memcg_file_lru_delta_kb'], [anon_lru_kb => 'memcg_anon_lru_delta_kb'];
	return { %med, n => scalar @a, pages => $a[0]{d}{pages},
		 still => scalar(grep { defined $_->{d}{memcg_counter_discarded} && $_->{d}{memcg_counter_discarded} == 0 } @a) };
}

# Dirty pages and MADV_PAGEOUT with no swap device active: { runs, purging
# (runs in which pages were dropped) }.
sub drop_swapless {
	my @r = grep { !mode_traits($_->{mode})->{swap} } dropped($_[0], $_[1], 'dirty_dropped_not_swapped') or return undef;
	return { runs => scalar @r, purging => scalar(grep { ($_->{d}{pages_discarded} // 0) > 0 } @r) };
}

# ---- the scenarios' own figures (suite/scenario_test.c, kind "scenario") ----

# The runs the accounting is read from, and a counter as the guest gave it
# (-1: the kernel has no such counter).
sub accounting_runs { my ($data) = @_; return map { of($data, $_, qw(memcg_reclaim madv_pageout)) } columns($data) }
sub counted { my ($c) = @_; return ($c // -1) < 0 ? 'absent' : $c }

# Whether each design's counters agreed with the pages found lost:
# { design => { runs, and equal|differs|absent|cg_equal|cg_differs|cg_absent => runs } }
sub accounting_agreement {
	my ($data) = @_;
	my %agree;
	for my $d (map { $_->{d} } accounting_runs($data)) {
		$agree{$d->{design}}{runs}++;
		for my $c (['', 'counter_discarded'], ['cg_', 'memcg_counter_discarded']) {
			my $n = counted($d->{$c->[1]});
			$agree{$d->{design}}{$c->[0] . ($n eq 'absent' ? 'absent'
				: $n == ($d->{pages_discarded} // -1) ? 'equal' : 'differs')}++;
		}
	}
	return \%agree;
}

our @SWAPLESS_SCN = qw(memcg_reclaim memcg_limit global_pressure);

# ([variant/mode, { design => { scenario => datum } }], ...) for the runs
# without swap, in report order.
sub swapless_runs {
	my ($data) = @_;
	my (%keys, @order);
	for my $x (@$data) {
		my $d = $x->{d};
		next if mode_traits($x->{mode})->{swap} || !grep { $_ eq ($d->{scenario} // '') } @SWAPLESS_SCN;
		push @order, where($x) unless $keys{where($x)};
		$keys{where($x)}{$d->{design}}{$d->{scenario}} = $d;
	}
	return map { [$_, $keys{$_}] } @order;
}

# { design => { runs => N, purging => N } }: pressure runs without swap, and
# those in which pages were discarded.
sub swapless_totals {
	my ($data) = @_;
	my %tot;
	for my $d (map { map { values %$_ } values %{$_->[1]} } swapless_runs($data)) {
		$tot{$d->{design}}{runs}++;
		$tot{$d->{design}}{purging} += ($d->{pages_discarded} // 0) > 0 ? 1 : 0;
	}
	return \%tot;
}

# The whole run's safety figures: { runs, lost_nonvolatile_bytes,
# cache_wrong, garbage_pages, undetected_vrange_losses }.
sub safety {
	my ($data) = @_;
	return { runs => scalar @$data, undetected_vrange_losses => scalar(grep { ($_->{d}{detect} // '') eq 'nothing' } @$data),
		 map { my $k = $_->[1]; ($_->[0] => sum(0, map { $_->{d}{$k} // 0 } @$data)) }
		 [lost_nonvolatile_bytes => 'lost_nonvolatile_bytes'], [cache_wrong => 'cache_wrong'], [garbage_pages => 'pages_garbage'] };
}

# Runs in which a design alone lost pages (the combined and cache
# scenarios judge loss in their own way).
our $OWN_LOSS = qr/^(both_designs|image_cache|no_pressure)$/;
sub lost_alone {
	my ($data, $design) = @_;
	return grep { ($_->{d}{design} // '') eq $design && ($_->{d}{pages_discarded} // 0) > 0 &&
		      ($_->{d}{scenario} // '') !~ $OWN_LOSS } @$data;
}

# Marking with no pressure (no_pressure): { runs => [its records], n, marked
# (pages) and chunk_kb (the first run's); each run's ns to mark, read and
# take back: mark_per_mib, mark_per_call, read_per_mib, take_back_per_mib =>
# [...], mark and take_back their medians per MiB; lazyfree_kb (the cgroup's
# change), pglazyfree, nr_lazyfree => [each run's, where the kernel has it],
# lazyfree the median of lazyfree_kb } | undef.
sub marking {
	my @np = of($_[0], $_[1], 'no_pressure') or return undef;
	my %c = map { my $k = $_->[1]; ($_->[0] => [grep { ($_ // -1) >= 0 } map { $_->{d}{$k} } @np]) }
		[lazyfree_kb => 'memcg_lazyfree_delta_kb'], [pglazyfree => 'counter_marked'], [nr_lazyfree => 'nr_lazyfree_delta'];
	for my $k (qw(mark_per_mib mark_per_call read_per_mib take_back_per_mib)) { $c{$k} = [map { $_->{d}{"ns_$k"} } @np] }
	return { %c, runs => \@np, n => scalar @np, marked => $np[0]{d}{pages_marked}, chunk_kb => $np[0]{d}{chunk_kb},
		 lazyfree => median(@{$c{lazyfree_kb}}), mark => median(@{$c{mark_per_mib}}), take_back => median(@{$c{take_back_per_mib}}) };
}

# The image cache (scenario image_cache): { runs => [its records], n,
# regenerated (median), objects, object_kb, wrong (summed) } | undef.
sub image_cache {
	my @c = of($_[0], $_[1], 'image_cache') or return undef;
	return { runs => \@c, n => scalar @c, regenerated => median(map { $_->{d}{cache_regenerated} } @c), objects => $c[0]{d}{cache_objects},
		 object_kb => $c[0]{d}{cache_object_kb}, wrong => sum(0, map { $_->{d}{cache_wrong} // 0 } @c) };
}

# Two THPs marked, then MADV_PAGEOUT (scenario thp): { dropped, pages,
# thp_kb (mapped huge once marked), n }, medians, as drop_thp's.
sub scn_thp {
	my @t = of($_[0], $_[1], 'thp') or return undef;
	return { dropped => median(map { $_->{d}{pages_discarded} } @t), pages => $t[0]{d}{pages_marked},
		 thp_kb => median(map { $_->{d}{thp_kb_after_mark} } @t), n => scalar @t };
}

# Half the pages written after marking (write_after_mark): { kept (written
# pages kept, median), pages (written), n }, as drop_write's.
sub scn_write {
	my @w = of($_[0], $_[1], 'write_after_mark') or return undef;
	return { kept => median(map { $_->{d}{written_kept} } @w), pages => $w[0]{d}{written_pages}, n => scalar @w };
}

# lost_share(\@data, \@designs, @scenarios) -> ([scenario, the median % of
# the marked pages lost per design (undef: no runs)], ...): the scenarios
# with a figure, in that order, but for those that judge loss in their own way.
sub lost_share {
	my ($data, $cols, @scenarios) = @_;
	return grep { grep { defined } @$_[1 .. $#$_] } map { my $sc = $_; [$sc, map { median(map { 100 * $_->{d}{pages_discarded} /
		$_->{d}{pages_marked} } grep { ($_->{d}{pages_marked} // 0) > 0 && defined $_->{d}{pages_discarded} } of($data, $_, $sc)) }
		@$cols] } grep { !/$OWN_LOSS/ } @scenarios;
}

# ---- allocator churn ----

# ratio_to($by_design, $design, $base) -> records/s against $base's: the
# program's median of each round's ratio where it gave one, else the ratio of the medians.
sub ratio_to {
	my ($by, $design, $base) = @_;
	my $x = $by->{$design} // {};
	return $x->{"ratio_to_$base"} // ratio($x->{records_per_s}, ($by->{$base} // {})->{records_per_s});
}

sub churn_rows {
	my ($m) = @_;
	my $churn = collect($m, 'churn');
	my @rows;
	for my $v (ordered(\@VARIANT_ORDER, keys %$churn)) {
		for my $mode (ordered(\@MODE_ORDER, keys %{$churn->{$v}})) {
			my %by;
			$by{$_->{threads} // 0}{$_->{design} // ''} = $_ for @{$churn->{$v}{$mode}};
			for my $th (sort { $a <=> $b } keys %by) {
				my $b = $by{$th};
				my %r = map { $_ => ratio_to($b, $_, 'dontneed') } with_seen(\@CHURN_DESIGNS, keys %$b);
				my %k = map { $_ => ratio_to($b, $_, 'keep') } keys %r;
				push @rows, { variant => $v, mode => $mode, threads => $th, by => $b, ratio => \%r, free => $r{madv_free},
					vrange_vs_free => ratio_to($b, 'vrange', 'madv_free'), keep => \%k, control => $k{vma_flag} };
			}
		}
	}
	return @rows;
}

sub analyse {
	my ($m, $hb) = @_;
	my @sweeps = mark_sweeps($m);
	@$_{qw(mark unmark)} = (mark_goal($_), unmark_goal($_)) for @sweeps;
	my @churn = churn_rows($m);
	my @data = all_data($m);
	return { churn => \@churn, sweeps => \@sweeps, oom => [oom_rows($m)], host => host_vs_guest($m, $hb, \@churn),
		 first => { map { $_ => first_reclaim($m, \@data, $_) } columns($m) }, accounting => accounting_agreement(\@data),
		 swapless => swapless_totals(\@data), safety => safety(\@data),
		 cache => { map { $_ => image_cache(\@data, $_) } columns(\@data) }, marking => { map { $_ => marking(\@data, $_) } columns(\@data) } };
}

# The analysis of $x: itself, or that of the matrix it is.
sub analysis { my ($x) = @_; return $x->{sweeps} ? $x : analyse($x) }

sub keep_shares {
	my ($m, $design) = @_;
	my @r = grep { defined } map { $_->{keep}{$design} } @{analysis($m)->{churn}};
	return undef unless @r;
	my $t = $THRESHOLD{keep};
	return { threshold => $t, shares => \@r, n => scalar @r, share => median(@r),
		 met => scalar(grep { $_ >= $t } @r) };
}

# ---- mark and unmark cost against range size (SPEC 4.5) ----

# The mode of a variant whose mark sweep reached the largest size.
sub widest_mode {
	my ($modes) = @_;
	my ($best, $bmax) = (undef, -1);
	for my $mode (ordered(\@MODE_ORDER, keys %$modes)) {
		my $mx = max(map { $_->{size} // 0 } @{$modes->{$mode}});
		($best, $bmax) = ($mode, $mx) if $mx > $bmax;
	}
	return $best;
}

sub mark_sweeps {
	my ($m) = @_;
	my $marks = collect($m, 'mark');
	return map {
		my $mode = widest_mode($marks->{$_});
		my %t;
		$t{$_->{design}}{$_->{op}}{$_->{size}} = $_ for @{$marks->{$_}{$mode}};
		{ variant => $_, mode => $mode, t => \%t, data => $marks->{$_}{$mode},
		  growth => { map { my $d = $_; ($d => { map { ($_ => growth_of(\%t, $d, $_)) } keys %{$t{$d}} }) } keys %t } };
	} ordered(\@VARIANT_ORDER, keys %$marks);
}

# A growth divided by the control's (undef: no control growth); within
# the flat threshold as it is or so divided.
sub adjust { my ($g, $gc) = @_; return defined $gc && $gc > 0 ? $g / $gc : undef }
sub flat_enough { my ($g, $adj) = @_; return $g <= $THRESHOLD{flat} || (defined $adj && $adj <= $THRESHOLD{flat}) }

# One op's growth in a sweep's table, its ns_median at the largest size to
# the smallest: { ratio, lo, hi, big (the datum at hi), adjusted (divided by
# the getppid() control's growth over the same sizes; undef where the
# control lacks them) } | undef.  mark_sweeps computes each once.
sub growth_of {
	my ($t, $design, $op) = @_;
	my $s = $t->{$design}{$op} // {};
	my ($lo, $hi) = (sort { $a <=> $b } keys %$s)[0, -1];
	my $g = defined $lo && $hi != $lo ? ratio($s->{$hi}{ns_median}, $s->{$lo}{ns_median}) : undef;
	return undef unless defined $g;
	my $c = $t->{vrange}{getppid} // {};
	return { ratio => $g, lo => $lo, hi => $hi, big => $s->{$hi},
		 adjusted => adjust($g, $c->{$lo} && $c->{$hi} ? ratio($c->{$hi}{ns_median}, $c->{$lo}{ns_median}) : undef) };
}

# vrange(VOLATILE): flat as a ratio to a null system call at the same point
# (under TCG the call itself grows with the pages the process touched).
sub mark_goal {
	my ($s) = @_;
	my $x = ($s->{growth}{vrange} // {})->{volatile} or return undef;
	my ($g, $gc) = ($x->{ratio}, ($s->{growth}{vrange}{getppid} // {})->{ratio});
	return { variant => $s->{variant}, mode => $s->{mode}, ratio => $g, (map { $_ => $x->{$_} } qw(lo hi big)),
		 control => $gc, threshold => $THRESHOLD{flat}, flat => $g <= $THRESHOLD{flat}, met => flat_enough($g, adjust($g, $gc)) };
}

# vrange(NONVOLATILE) with nothing purged, and after a purge of the range.
sub unmark_goal {
	my $g = $_[0]{growth}{vrange} // {};
	my $n = $g->{nonvolatile} or return undef;
	my ($gc, $a) = (($g->{getppid} // {})->{ratio}, $g->{nonvolatile_after_purge} // {});
	my $adj = adjust($n->{ratio}, $gc);
	my $met = flat_enough($n->{ratio}, $adj);
	$met &&= flat_enough($a->{ratio}, $a->{adjusted}) if defined $a->{ratio};
	return { variant => $_[0]{variant}, mode => $_[0]{mode}, ratio => $n->{ratio}, control => $gc, adjusted => $adj,
		 lo => $n->{lo}, hi => $n->{hi}, met => $met, threshold => $THRESHOLD{flat},
		 after => $a->{ratio}, after_adjusted => $a->{adjusted}, after_lo => $a->{lo}, after_hi => $a->{hi} };
}

# One design's operation, smallest size to largest, over the variants.
sub op_growth {
	my ($m, $design, $op) = @_;
	my (@g, @adj, %lo, %hi);
	for my $s (@{analysis($m)->{sweeps}}) {
		my $x = ($s->{growth}{$design} // {})->{$op} or next;
		push @g, $x->{ratio};
		$lo{$x->{lo}} = $hi{$x->{hi}} = 1;
		push @adj, $x->{adjusted} if defined $x->{adjusted};
	}
	return undef unless @g;
	return { growth => median(@g), n => scalar @g, adjusted => median(@adj), n_adjusted => scalar @adj,
		 lo => [sort { $a <=> $b } keys %lo], hi => [sort { $a <=> $b } keys %hi] };
}

# ---- an OOM next to marked memory ----

sub oom_rows {
	my ($m) = @_;
	my $oom = collect($m, 'oom');
	my @designs = bench_designs($m, 'oom', \@OOM_DESIGNS);
	my @rows;
	for my $v (ordered(\@VARIANT_ORDER, keys %$oom)) {
		for my $mode (ordered(\@MODE_ORDER, keys %{$oom->{$v}})) {
			for my $x (map { my $dn = $_; grep { ($_->{design} // '') eq $dn } @{$oom->{$v}{$mode}} }
				   @designs) {
				my ($dn, $r) = ($x->{design}, $x->{ratio_to_control});
				push @rows, { variant => $v, mode => $mode, design => $dn, x => $x, ratio => $r,
					scan => $x->{pgscan_anon}, threshold => $THRESHOLD{oom},
					met => defined $r && $r <= $THRESHOLD{oom} && !($x->{pgscan_anon} // 0) };
			}
		}
	}
	return @rows;
}

sub oom_vs_none {
	my ($m, $design) = @_;
	my @r = grep { defined } map { $_->{ratio} } grep { $_->{design} eq $design } @{analysis($m)->{oom}};
	return undef unless @r;
	my $t = $THRESHOLD{oom};
	return { threshold => $t, ratios => \@r, n => scalar @r, ratio => median(@r),
		 within => scalar(grep { $_ <= $t } @r) };
}

# ---- the guests beside this host (make host-bench) ----

# The figures make host-bench measures, per benchmark: [bench, op (undef:
# any), the keys that name a cell, its figures].  Churn's come from
# churn_rows, as its table shows them; the discardable cache's are its
# records' own, its answers compared only under the same kind of pressure.
our @HOST_FIGURES = (
	[churn => undef, [qw(design threads)], [qw(ratio_to_dontneed ratio_to_keep)]],
	[discardable => latency => [qw(design op size)], [qw(ns_lock ns_unlock)]],
	[discardable => cycles => [qw(design op pressure)], [qw(cache_regenerated cache_false_alarms)]],
);

# churn_cells(@churn_rows) -> a flat cell for each design of each row (keep
# / DONTNEED left out: the inverse of DONTNEED / keep):
# { variant, mode, threads, design, ratio_to_dontneed, ratio_to_keep }
sub churn_cells {
	return map {
		my $r = $_;
		map { { variant => $r->{variant}, mode => $r->{mode}, threads => $r->{threads}, design => $_,
			ratio_to_dontneed => /^(dontneed|keep)$/ ? undef : $r->{ratio}{$_},
			ratio_to_keep => $_ eq 'keep' ? undef : $r->{keep}{$_} } }
			grep { $r->{by}{$_} } with_seen(\@CHURN_DESIGNS, keys %{$r->{by}});
	} @_;
}

# bench_cells($m, $bench) -> its records, each flat with its variant and mode.
sub bench_cells {
	my ($m, $bench) = @_;
	return map { { %{$_->{d}}, variant => $_->{variant}, mode => $_->{mode} } }
		data_of_kind($m, 'bench', sub { ($_[0]{bench} // '') eq $bench });
}

sub host_vs_guest {
	my ($m, $hb, $churn) = @_;
	return undef unless $hb;
	my $hm = host_matrix($hb);
	my %cells = (churn => [[churn_cells(churn_rows($hm))], [churn_cells(@{$churn // [churn_rows($m)]})]],
		     discardable => [[bench_cells($hm, 'discardable')], [bench_cells($m, 'discardable')]]);
	my @rows;
	for my $f (@HOST_FIGURES) {
		my ($bench, $op, $keys, $figures) = @$f;
		my ($host, $guest) = map { [grep { !defined $op || ($_->{op} // '') eq $op } @$_] } @{$cells{$bench}};
		for my $h (@$host) {
			my @same = grep { my $g = $_; !grep { ($g->{$_} // '') ne ($h->{$_} // '') } @$keys } @$guest;
			for my $fig (grep { defined $h->{$_} } @$figures) {
				my @g = grep { defined $_->{$fig} } @same;
				my @v = map { $_->{$fig} } @g;
				my $med = median(@v);
				push @rows, { bench => $bench, figure => $fig, (map { $_ => $h->{$_} } @$keys),
					host => $h->{$fig}, guest => $med, guest_min => min(@v), guest_max => max(@v),
					n => scalar @g, cells => [map { where($_) } @g], ratio => ratio($h->{$fig}, $med) };
			}
		}
	}
	return { (map { $_ => $hb->{$_} } grep { exists $hb->{$_} } qw(host_kernel generated machine cpu cores swap lru)),
		 rows => \@rows };
}

1;
