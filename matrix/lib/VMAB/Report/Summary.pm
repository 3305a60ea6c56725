package VMAB::Report::Summary;
# The report's first screen: what each design gives a user (its documented
# promises, VMAB::Designs, beside what this run saw), the questions of 2014
# answered in a line each, and the headline figures with one plot; every
# number comes from matrix.json through VMAB::Report::Goals, which the
# benchmark section formats too.  One column a design.
#   semantics($matrix)  -> ({ aspect, DESIGN => promise, and either
#                             DESIGN_measured, or question: the answer
#                             that has its figures }, ...)
#   figures($matrix)    -> ({ figure, DESIGN => text }, ...)
#   section($matrix, $report_dir) -> markdown (headings from level 3 down)
use strict;
use warnings;
use VMAB::Designs qw(design designs title);
use VMAB::Report::Data qw(all_data columns tally $NOT_MEASURED);
use VMAB::Report::Goals qw(%THRESHOLD);
use VMAB::Report::Scenarios;
use VMAB::Report::Bench;
use VMAB::Report::Plot qw(bars_svg);
use VMAB::Report::Html qw(md_table esc_cell slug);

# What the user is promised: [aspect, the key of each design's promise in
# VMAB::Designs, measure].  The measure is a sub that returns what this run saw of it for
# one design (undef: no figure), or the number of the question of 2014
# whose one-line answer gives the figures, so that the summary says each
# figure once.
our @SEMANTICS = (
	['How loss is signalled', 'loss',
	 sub { my @l = VMAB::Report::Goals::lost_alone(@_) or return; 'detected by ' . tally('detect', @l) }],
	['Access to lost memory while marked', 'access', 3],
	['Cost of mark and unmark', 'cost', 6],
	['What reclaim takes first', 'order', 2],
	['Without swap', 'swapless', 5],
	['Transparent huge pages', 'thp', sub { thp_seen('marked', VMAB::Report::Goals::scn_thp(@_)) }],
	['Memory cgroup accounting', 'memcg', 1],
	['A write after marking', 'write', sub { write_seen(VMAB::Report::Goals::scn_write(@_)) }],
);

# The same seen of a design that is no variant of scenario_test (VMAB::Designs
# no_scenarios), from its own tests (VMAB::Report::Goals), by the promise's
# key ($matrix, $design); an aspect without one here is measured as above,
# from the records its tests write in the scenarios' shape.
our %OWN = (thp => sub { thp_seen('droppable', VMAB::Report::Goals::drop_thp(@_)) },
	    write => sub { write_seen(VMAB::Report::Goals::drop_write(@_)) });

# The THP and write figures of either kind of test, as seen (undef: none).
sub thp_seen {
	my ($what, $g) = @_;
	return $g && sprintf("%s of %s $what pages of THP (%s kB mapped huge) lost to `MADV_PAGEOUT` (median of %d runs)",
		(map { $_ // '?' } @$g{qw(dropped pages thp_kb)}), $g->{n});
}
sub write_seen { my ($g) = @_; return $g && sprintf('%s of %s written pages kept (median of %d runs)', (map { $_ // '?' } @$g{qw(kept pages)}), $g->{n}) }

sub semantics {
	my ($m) = @_;
	my @data = all_data($m);
	my @cols = columns($m);
	return map {
		my ($aspect, $key, $measure) = @$_;
		{ aspect => $aspect, (map { $_ => design($_)->{promises}{$key} } @cols),
		  ref $measure ? (map { ("${_}_measured" => (design($_)->{no_scenarios} && $OWN{$key} ? $OWN{$key}->($m, $_)
			: $measure->(\@data, $_)) // $NOT_MEASURED) } @cols) : (question => $measure) };
	} @SEMANTICS;
}

sub pct { my ($x) = @_; return defined $x ? sprintf('%.0f%%', 100 * $x) : '?' }

# "FIGURE (median of n runs); at least|within THRESHOLD in k of n" of a goal.
sub of_runs {
	my ($figure, $g, $bound, $k) = @_;
	return sprintf('%s (median of %d runs); %s in %d of %d', $figure, $g->{n}, $bound, $k, $g->{n});
}

# Marked pages that reclaim of exactly the marked size took, swap on (SPEC 9).
sub first_taken {
	my ($an, $design) = @_;
	my $g = $an->{first}{$design} or return $NOT_MEASURED;
	return of_runs(pct($g->{share}), $g, 'at least ' . pct($g->{threshold}), $g->{met}) .
		($g->{source} ? " (`$g->{source}`, THP off)" : '');
}

sub cache_figure {
	my $g = $_[0]{cache}{$_[1]} or return $NOT_MEASURED;	# ($an, $design)
	return sprintf('%s of %s objects of %s KiB regenerated (median of %d runs); %d came back wrong',
		(map { $_ // '?' } @$g{qw(regenerated objects object_kb)}), $g->{n}, $g->{wrong});
}

# keep_share($matrix, $bench_design) -> "N% of keep (median of n runs); at
# least 90% in k of n", or undef without figures.
sub keep_share {
	my ($m, $design) = @_;
	my $g = VMAB::Report::Goals::keep_shares($m, $design) or return undef;
	return of_runs(pct($g->{share}) . ' of keep', $g, 'at least ' . pct($g->{threshold}), $g->{met});
}

# Allocator churn against keep (never giving memory back), same boot and
# mode; for vrange also with a VMA per chunk (bench_churn vrange_own_vma).
sub churn_vs_keep {
	my ($m, $design) = @_;
	my $s = keep_share($m, $design) // return $NOT_MEASURED;
	my $own = $design eq 'vrange' ? keep_share($m, 'vrange_own_vma') : undef;
	return $own ? "$s; with a VMA per chunk (no split): $own" : $s;
}

# An OOM without swap next to marked memory, against nothing marked.
sub oom_vs_none {
	my ($m, $design) = @_;
	my $g = VMAB::Report::Goals::oom_vs_none($m, $design) or return $NOT_MEASURED;
	return of_runs(sprintf('%.2fx the time with nothing marked', $g->{ratio}), $g, sprintf('within %.2fx', $g->{threshold}),
		$g->{within});
}

# How one design's operation grows from the smallest range size to the
# largest, median over the variants, and the same divided by a getppid()
# timed at the same point over the same sizes (under TCG the null call
# itself grows with the size of the range swept before it).
sub op_growth {
	my ($m, $design, $op) = @_;
	my $g = defined $op ? VMAB::Report::Goals::op_growth($m, $design, $op) : undef;
	return $NOT_MEASURED unless $g;
	# The variants' sweeps end where their time budgets ran out.
	my @his = map { VMAB::Report::Bench::size_name($_) } @{$g->{hi}};
	my $sizes = @{$g->{lo}} == 1 && @his == 1
		? sprintf('at %s vs %s', $his[0], VMAB::Report::Bench::size_name($g->{lo}[0]))
		: sprintf('from the smallest size to each variant\'s largest (%s)', join(', ', @his));
	return sprintf('%.2fx %s (median of %d variants)%s', $g->{growth}, $sizes, $g->{n},
		$g->{n_adjusted} ? sprintf('; %.2fx once the getppid() control at the same point is divided out (median of %d)',
			$g->{adjusted}, $g->{n_adjusted}) : '');
}

# The unmark with nothing purged that follows a purge of the same range: the
# one an allocator under pressure makes.
sub unmark_growth {
	my ($m, $design) = @_;
	my $d = design($design);
	return $d->{no_unmark} // $NOT_MEASURED unless defined $d->{unmark_op};
	return op_growth($m, $design, $d->{unmark_op});
}

# figures($matrix[, VMAB::Report::Goals::analyse($matrix)])
sub figures {
	my ($m, $an) = @_;
	$an //= VMAB::Report::Goals::analyse($m);
	my @data = all_data($m);
	my ($first, $keep, $flat, $oom) = @THRESHOLD{qw(first_taken keep flat oom)};
	# [key (a design's does_not_apply names it), figure, its cell of a design]
	my @rows = (
		[first => 'Reclaim of exactly the marked size, swap on: marked pages taken (goal: at least ' . pct($first) . ')',
		 sub { first_taken($an, $_[0]) }],
		[cache => 'Image cache after pressure: objects regenerated, objects wrong', sub { cache_figure($an, $_[0]) }],
		[churn => 'Allocator churn, records/s against never giving memory back (goal: at least ' . pct($keep) . ')',
		 sub { churn_vs_keep($an, $_[0]) }],
		[mark => "Mark cost against range size (goal for vrange: within ${flat}x)",
		 sub { op_growth($an, $_[0], design($_[0])->{mark_op}) }],
		[unmark => 'Unmark cost against range size, nothing purged, after a purge of the range ' .
		 "(goal for vrange: within ${flat}x)", sub { unmark_growth($an, $_[0]) }],
		[oom => 'An OOM without swap while another process holds marked memory (goal: within ' .
		 sprintf('%.2fx', $oom) . ' of nothing marked)', sub { oom_vs_none($an, $_[0]) }],
	);
	my @cols = columns($m);
	return map { my ($k, $f, $s) = @$_; { figure => $f, map { $_ => design($_)->{does_not_apply}{$k} // $s->($_) } @cols } } @rows;
}

# The designs of VMAB::Designs that this run has no figures of: said once.
sub unmeasured_note {
	my ($m) = @_;
	my %col = map { $_ => 1 } columns($m);
	my @not = grep { !$col{$_->{key}} } designs();
	return '' unless @not;
	return join(' ', map { "$_->{title} (`$_->{kconfig}`): $NOT_MEASURED (no figures of design " .
		"`$_->{key}` in matrix.json)." } @not) . "\n\n";
}

# section($matrix, $report_dir[, VMAB::Report::Goals::analyse($matrix)])
sub section {
	my ($m, $dir, $an) = (@_[0, 1], $_[2] // VMAB::Report::Goals::analyse($_[0]));
	my @data = all_data($m);
	my @cols = columns($m);
	# (The corner of the first table is empty: "| |", not "|  |".)
	my $md = "### What each design gives a user\n\n" . (md_table(['', map { title($_) } @cols], map { my $r = $_;
		["**$r->{aspect}**", map { my $x = esc_cell($r->{$_}); defined $r->{question}
			? "$x (figures: $r->{question} below)" : "$x. Seen: " . esc_cell($r->{"${_}_measured"}) } @cols] }
		semantics($m)) =~ s/^\|  \|/| |/r);
	$md .= "\nThe promises are the designs' documentation in this repository (`patches/vrange/` " .
		"Documentation/userspace-api/vrange.rst, `docs/man/vrange.2`, `patches/madv-free/README`); " .
		"every figure is this run's, from the scenario tests (`suite/scenario_test.c`" . join('', map { '; ' .
		design($_)->{letter} . "'s, which has no mark, from `suite/reclaim_test.c` and `suite/droppable_test.c`" }
		grep { design($_)->{no_scenarios} } @cols) . ") and the benchmarks.\n\n";
	$md .= unmeasured_note($m);

	$md .= "### The questions of 2014, answered by this run\n\n";
	for my $q (VMAB::Report::Scenarios::answers($m, $an)) {
		my $anchor = slug(VMAB::Report::Scenarios::question_heading($q->{n}, $q->{title}));
		$md .= "$q->{n}. **$q->{title}.** $q->{question} " .
			join(' ', map { design($_)->{letter} . ": $q->{$_}." } @cols) . " ([evidence](#$anchor))\n";
	}
	$md .= "\n### Headline figures\n\n";
	$md .= @data ? VMAB::Report::Scenarios::headline($an->{safety}) : "_No scenario figures in this run._\n\n";
	$md .= md_table(['figure', map { title($_) } @cols], map { [$_->{figure}, map { esc_cell($_) } @$_{@cols}] }
		figures($m, $an)) . "\n";
	my @share = map { my ($sc, @v) = @$_; [$sc, map { defined ? 0 + sprintf('%.1f', $_) : undef } @v] }
		VMAB::Report::Goals::lost_share(\@data, \@cols, map { $_->[0] } @VMAB::Report::Scenarios::SCENARIOS);
	if (@share) {
		my $svg = bars_svg($dir, 'summary-lost-share', {
			title => 'Marked pages lost under pressure, by scenario (median over variants and modes)',
			ylabel => '% of the marked pages', size => '900,340' }, [map { title($_) } @cols], \@share);
		$md .= '![Marked pages lost under pressure, by scenario, ' .
			join(' against ', map { 'design ' . design($_)->{letter} } @cols) . "]($svg)\n\n";
	}
	return "$md\n";
}

1;
