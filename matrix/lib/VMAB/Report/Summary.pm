package VMAB::Report::Summary;
# The report's first screen (what a reader wants first): what each design gives a user, the
# headline figures with one plot, and the questions of 2014 answered in a
# line each.  The semantics are the designs' documented behaviour
# (Documentation/mm/vrange.rst and vrange.2 in patches/vrange/, the
# README of patches/madv-free/, 6.1's madvise(2)); every number comes from
# matrix.json, and a figure the run does not have says so.  Nothing here
# catches an error: a bug in this code fails the report, and the run.
#   semantics($matrix)  -> ({ aspect, vrange, madv_free, and either
#                             vrange_measured and madv_free_measured, or
#                             question: the answer that has its figures }, ...)
#   figures($matrix)    -> ({ figure, vrange, madv_free }, ...)
#   lost_share($matrix) -> ([scenario, A %, B %], ...)
#   section($matrix, $report_dir) -> markdown (headings from level 3 down)
use strict;
use warnings;
use List::Util qw(sum);
use VMAB::Report::Scenarios;
use VMAB::Report::Bench;
use VMAB::Report::Plot qw(bars_svg);
use VMAB::Report::Html;

our %TITLE = (vrange => 'A: vrange', madv_free => 'B: MADV_FREE');
our $NOT_MEASURED = $VMAB::Report::Scenarios::NOT_MEASURED;
our $FIRST_GOAL = 0.95;	# SPEC 9: reclaim of the marked size takes >= 95% of it
our $KEEP_GOAL = $VMAB::Report::Bench::KEEP_GOAL;
our $FLAT = $VMAB::Report::Bench::FLAT;	# SPEC 4.5: 1 GiB within 2x of 4 KiB
our $OOM_GOAL = $VMAB::Report::Bench::OOM_GOAL;	# OOM time next to marked memory / none

*median = \&VMAB::Report::Scenarios::median;
*tally = \&VMAB::Report::Scenarios::tally;

sub of { my ($data, $design, @scn) = @_; return VMAB::Report::Scenarios::of($data, $design, @scn) }

# What the user is promised, per design: [aspect, A, B, measure].  The
# measure is a sub that returns what this run saw of it for one design
# (undef: no figure), or the number of the question of 2014 whose one-line
# answer gives the figures, so that the summary says each figure once.
our @SEMANTICS = (
	['How loss is signalled',
	 '`VRANGE_NONVOLATILE` (or `VRANGE_QUERY`) sets `*purged`; SIGBUS on touching a lost page while marked',
	 'not at all: a lost page reads as zeros, so the user keeps a canary per page',
	 sub { my @l = VMAB::Report::Scenarios::lost_alone(@_) or return; 'detected by ' . tally('detect', @l) }],
	['Access to lost memory while marked',
	 'SIGBUS (`BUS_ADRERR`, `si_addr` in the page); read(2)/write(2) on it fail with `EFAULT`; zero pages once unmarked',
	 'a zero-filled page, for user space and the kernel alike',
	 3],
	['Cost of mark and unmark',
	 'mark: one call sets a VMA flag, no page-table walk (VMAs split and merge under the mmap write lock); unmark: a second call, which reports loss, and walks the page tables only of a VMA where a purge, a swap-out or `MADV_FREE` may have left something, once',
	 'mark: `madvise()` walks the page tables and moves each page to the lazy-free LRU; unmark: none, a write to a page cancels its discard',
	 6],
	['What reclaim takes first',
	 'a page whose every mapping is volatile is purged instead of swapped, however recently it was used',
	 'lazily free pages sit on the inactive file LRU; while an LRU holds 32 or more, the classic LRU scans only the file lists, so they go before anon memory is swapped out (MGLRU picks the file type while they are the oldest)',
	 2],
	['Without swap',
	 'purges with no swap device and with `CONFIG_SWAP=n`: a purge pass takes volatile pages before the LRU lists are scanned, so reclaim without swap scans no anon memory for them (v11 needed swap)',
	 'discards without swap: the file LRU it sits on is always scanned',
	 5],
	['Transparent huge pages',
	 'a huge page in a volatile range is split, then purged page by page',
	 'a whole huge page is marked in one step (`madvise_free_huge_pmd`); marking part of one splits it',
	 sub {
		 my @t = of($_[0], $_[1], 'thp') or return;
		 sprintf('%s of %s marked pages of THP (%s kB mapped huge) lost to `MADV_PAGEOUT` (median of %d runs)',
			 median(map { $_->{d}{pages_discarded} } @t) // '?', $t[0]{d}{pages_marked} // '?',
			 median(map { $_->{d}{thp_kb_after_mark} } @t) // '?', scalar @t);
	 }],
	['Memory cgroup accounting',
	 'purged pages leave the cgroup\'s charge; counted in /proc/vmstat `pgvrange_purged` only',
	 '`pglazyfree` and `pglazyfreed` in /proc/vmstat and memory.stat, and the gauge `lazyfree` (memory.stat), `LazyFree:` (meminfo), `nr_lazyfree` (vmstat)',
	 1],
	['A write after marking',
	 'does not unmark: the page may still be purged',
	 'cancels the discard of that page',
	 sub {
		 my @w = of($_[0], $_[1], 'write_after_mark') or return;
		 sprintf('%s of %s written pages kept (median of %d runs)', median(map { $_->{d}{written_kept} } @w) // '?',
			 $w[0]{d}{written_pages} // '?', scalar @w);
	 }],
);

sub semantics {
	my ($m) = @_;
	my @data = VMAB::Report::Scenarios::all_data($m);
	return map {
		my ($aspect, $a, $b, $measure) = @$_;
		ref $measure
		? { aspect => $aspect, vrange => $a, madv_free => $b,
		    vrange_measured => $measure->(\@data, 'vrange') // $NOT_MEASURED,
		    madv_free_measured => $measure->(\@data, 'madv_free') // $NOT_MEASURED }
		: { aspect => $aspect, vrange => $a, madv_free => $b, question => $measure };
	} @SEMANTICS;
}

sub pct { my ($x) = @_; return defined $x ? sprintf('%.0f%%', 100 * $x) : '?' }

# Marked pages that reclaim of exactly the marked size took, swap on (SPEC 9).
sub first_taken {
	my ($data, $design) = @_;
	my @fp = grep { $_->{mode} =~ /^swap-/ && ($_->{d}{pages_marked} // 0) > 0 &&
			defined $_->{d}{first_pass_discarded} } of($data, $design, 'memcg_reclaim')
		or return $NOT_MEASURED;
	my @share = map { $_->{d}{first_pass_discarded} / $_->{d}{pages_marked} } @fp;
	my $met = grep { $_ >= $FIRST_GOAL } @share;
	return sprintf('%s (median of %d runs); at least %s in %d of %d', pct(median(@share)), scalar @fp,
		pct($FIRST_GOAL), $met, scalar @fp);
}

sub cache_figure {
	my ($data, $design) = @_;
	my @c = of($data, $design, 'image_cache') or return $NOT_MEASURED;
	return sprintf('%s of %s objects of %s KiB regenerated (median of %d runs); %d came back wrong',
		median(map { $_->{d}{cache_regenerated} } @c) // '?', $c[0]{d}{cache_objects} // '?',
		$c[0]{d}{cache_object_kb} // '?', scalar @c,
		sum(0, map { $_->{d}{cache_wrong} // 0 } @c));
}

# Allocator churn against keep (never giving memory back), same boot and
# mode; for vrange also with a VMA per chunk (bench_churn vrange_own_vma).
sub churn_vs_keep {
	my ($m, $design) = @_;
	my $s = keep_share($m, $design) // return $NOT_MEASURED;
	my $own = $design eq 'vrange' ? keep_share($m, 'vrange_own_vma') : undef;
	return $own ? "$s; with a VMA per chunk (no split): $own" : $s;
}

# keep_share($matrix, $bench_design) -> "N% of keep (median of n runs); at
# least 90% in k of n", or undef without figures.
sub keep_share {
	my ($m, $design) = @_;
	my $churn = VMAB::Report::Bench::collect($m, 'churn');
	my @r;
	for my $v (keys %$churn) {
		for my $mode (keys %{$churn->{$v}}) {
			my %by;
			$by{$_->{threads} // 0}{$_->{design} // ''} = $_ for @{$churn->{$v}{$mode}};
			for my $b (values %by) {
				my $r = VMAB::Report::Bench::share_of_keep($b, $design);
				push @r, $r if defined $r;
			}
		}
	}
	return undef unless @r;
	my $met = grep { $_ >= $KEEP_GOAL } @r;
	return sprintf('%s of keep (median of %d runs); at least %s in %d of %d', pct(median(@r)), scalar @r,
		pct($KEEP_GOAL), $met, scalar @r);
}

# An OOM without swap next to marked memory, against nothing marked
# (bench_oom's per-run median ratio), over every variant and mode.
sub oom_vs_none {
	my ($m, $design) = @_;
	my $oom = VMAB::Report::Bench::collect($m, 'oom');
	my @r = grep { defined } map { $_->{ratio_to_control} } grep { ($_->{design} // '') eq $design }
		map { @$_ } map { values %$_ } values %$oom;
	return $NOT_MEASURED unless @r;
	return sprintf('%.2fx the time with nothing marked (median of %d runs); within %.2fx in %d of %d',
		median(@r), scalar @r, $OOM_GOAL, scalar(grep { $_ <= $OOM_GOAL } @r), scalar @r);
}

# How one design's operation grows from the smallest range size to the
# largest, median over the variants, and the same divided by a getppid()
# timed at the same point over the same sizes (under TCG the null call
# itself grows with the size of the range swept before it).
sub op_growth {
	my ($m, $design, $op) = @_;
	my $marks = VMAB::Report::Bench::collect($m, 'mark');
	my (@g, @adj, %lo, %hi);
	for my $v (keys %$marks) {
		my $mode = VMAB::Report::Bench::widest_mode($marks->{$v});
		my $t = VMAB::Report::Bench::mark_lookup($marks->{$v}{$mode});
		my ($r, $l, $h, $a) = VMAB::Report::Bench::growth_vs_control($t, $design, $op);
		next unless defined $r;
		push @g, $r;
		$lo{$l} = $hi{$h} = 1;
		push @adj, $a if defined $a;
	}
	return $NOT_MEASURED unless @g;
	# The variants' sweeps end where their time budgets ran out.
	my @his = map { VMAB::Report::Bench::size_name($_) } sort { $a <=> $b } keys %hi;
	my $sizes = keys %lo == 1 && @his == 1
		? sprintf('at %s vs %s', $his[0], VMAB::Report::Bench::size_name(keys %lo))
		: sprintf('from the smallest size to each variant\'s largest (%s)', join(', ', @his));
	return sprintf('%.2fx %s (median of %d variants)%s', median(@g), $sizes, scalar @g,
		@adj ? sprintf('; %.2fx once the getppid() control at the same point is divided out (median of %d)',
			median(@adj), scalar @adj) : '');
}

sub mark_growth {
	my ($m, $design) = @_;
	return op_growth($m, $design, $design eq 'vrange' ? 'volatile' : 'madv_free');
}

# The unmark with nothing purged that follows a purge of the same range: the
# one an allocator under pressure makes.
sub unmark_growth {
	my ($m, $design) = @_;
	return 'no unmark: a write to a page cancels its discard' if $design eq 'madv_free';
	return op_growth($m, $design, 'nonvolatile_after_purge');
}

sub figures {
	my ($m) = @_;
	my @data = VMAB::Report::Scenarios::all_data($m);
	my @rows = (
		['Reclaim of exactly the marked size, swap on: marked pages taken (goal: at least ' . pct($FIRST_GOAL) . ')',
		 sub { first_taken(\@data, $_[0]) }],
		['Image cache after pressure: objects regenerated, objects wrong', sub { cache_figure(\@data, $_[0]) }],
		['Allocator churn, records/s against never giving memory back (goal: at least ' . pct($KEEP_GOAL) . ')',
		 sub { churn_vs_keep($m, $_[0]) }],
		["Mark cost against range size (goal for vrange: within ${FLAT}x)", sub { mark_growth($m, $_[0]) }],
		['Unmark cost against range size, nothing purged, after a purge of the range ' .
		 "(goal for vrange: within ${FLAT}x)", sub { unmark_growth($m, $_[0]) }],
		['An OOM without swap while another process holds marked memory (goal: within ' .
		 sprintf('%.2fx', $OOM_GOAL) . ' of nothing marked)', sub { oom_vs_none($m, $_[0]) }],
	);
	return map { my ($f, $s) = @$_; { figure => $f, vrange => $s->('vrange'), madv_free => $s->('madv_free') } } @rows;
}

# Median share of the marked pages lost, per scenario and design.
sub lost_share {
	my ($m) = @_;
	my @data = VMAB::Report::Scenarios::all_data($m);
	my @rows;
	for my $sc (@VMAB::Report::Scenarios::SCENARIOS) {
		my $name = $sc->[0];
		next if $name =~ /^(no_pressure|image_cache|both_designs)$/;
		my @v = map {
			my @xs = grep { ($_->{d}{pages_marked} // 0) > 0 && defined $_->{d}{pages_discarded} }
				of(\@data, $_, $name);
			my $med = median(map { 100 * $_->{d}{pages_discarded} / $_->{d}{pages_marked} } @xs);
			defined $med ? 0 + sprintf('%.1f', $med) : undef;
		} qw(vrange madv_free);
		push @rows, [$name, @v] if grep { defined } @v;
	}
	return @rows;
}

sub esc_cell { my ($s) = @_; $s =~ s/\|/\\|/g; return $s }

sub section {
	my ($m, $dir) = @_;
	my @data = VMAB::Report::Scenarios::all_data($m);
	my $md = "### What each design gives a user\n\n" .
		"| | $TITLE{vrange} | $TITLE{madv_free} |\n|---|---|---|\n";
	for my $r (semantics($m)) {
		my @c = map {
			my $x = esc_cell($r->{$_});
			defined $r->{question} ? "$x (figures: $r->{question} below)"
				: "$x. Seen: " . esc_cell($r->{"${_}_measured"});
		} qw(vrange madv_free);
		$md .= "| **$r->{aspect}** | $c[0] | $c[1] |\n";
	}
	$md .= "\nThe promises are the designs' documentation in this repository (`patches/vrange/` " .
		"Documentation/mm/vrange.rst and vrange.2, `patches/madv-free/README`); " .
		"every figure is this run's, from the scenario tests (`suite/scenario_test.c`) and the benchmarks.\n\n";

	$md .= "### The questions of 2014, answered by this run\n\n";
	for my $q (VMAB::Report::Scenarios::answers($m)) {
		my $anchor = VMAB::Report::Html::slug(VMAB::Report::Scenarios::question_heading($q->{n}, $q->{title}));
		$md .= "$q->{n}. **$q->{title}.** $q->{question} A: $q->{vrange}. B: $q->{madv_free}. " .
			"([evidence](#$anchor))\n";
	}
	$md .= "\n### Headline figures\n\n";
	$md .= @data ? VMAB::Report::Scenarios::headline(\@data) : "_No scenario figures in this run._\n\n";
	$md .= "| figure | $TITLE{vrange} | $TITLE{madv_free} |\n|---|---|---|\n";
	$md .= "| $_->{figure} | " . esc_cell($_->{vrange}) . ' | ' . esc_cell($_->{madv_free}) . " |\n" for figures($m);
	$md .= "\n";
	my @share = lost_share($m);
	if (@share) {
		my $svg = bars_svg($dir, 'summary-lost-share', {
			title => 'Marked pages lost under pressure, by scenario (median over variants and modes)',
			ylabel => '% of the marked pages', size => '900,340' },
			[$TITLE{vrange}, $TITLE{madv_free}], \@share);
		$md .= "![Marked pages lost under pressure, by scenario, design A against design B]($svg)\n\n";
	}
	return "$md\n";
}

1;
