package VMAB::Report::Scenarios;
# The report's scenario figures: suite/scenario_test.c's "# @data" records
# (kind "scenario") and the pass/skip/fail of the same tests, one column a
# design (VMAB::Designs); headings from level 3 down.  The answers format the analysis
# (VMAB::Report::Goals::analyse, $an); the evidence adds the runs' ranges and tallies.
#   answers($matrix[, $an]): the 2014 reviewers' questions, each answered in one line per design (the summary shows them);
#   section($matrix, $dir[, $an]): the evidence behind each answer;
#   appendix($matrix): scenario by scenario what each design did, one row
#       per variant and run-time mode, and the per-run accounting and
#       swapless tables.
use strict;
use warnings;
use List::Util qw(sum pairs);
use VMAB::Designs qw(design title);
use VMAB::Record qw(mode_tests mode_names);
use VMAB::Report::Goals qw(%THRESHOLD accounting_runs counted swapless_runs lost_alone @SWAPLESS_SCN);
use VMAB::Report::Html qw(md_table);
use VMAB::Report::Data qw(variant_names ordered data_of_kind all_data reclaim_order of where range_str tally columns
	$NOT_MEASURED @MODE_ORDER);

our $PROG = 'scenario_test';

# Scenario, what it does, the figures its cells show after the common ones
# (discarded pages, detection, what a read returned) with their short
# labels, and the cell's style.
our @SCENARIOS = (
	[no_pressure => 'No pressure: marked memory is left alone; what marking, reading and taking it back cost.',
	 [pages_intact => 'intact', purged => 'purged flag', ns_mark_per_mib => 'mark', ns_read_per_mib => 'read',
	  ns_take_back_per_mib => 'take back'], 'nodiscard'],
	[memcg_reclaim => 'memcg `memory.reclaim` of everything the cgroup holds (first exactly the marked size).',
	 [first_pass_discarded => '1st pass took', first_pass_keep_swapped_kb => 'unmarked swapped kB',
	  kernel_read_into => 'read(2) into']],
	[memcg_limit => 'memcg `memory.max` with 8 MiB of room and a 12 MiB hog in the same cgroup.',
	 [hog_oom_killed => 'hog OOM-killed']],
	[madv_pageout => '`MADV_PAGEOUT` on the marked range.', []],
	[global_pressure => 'Global pressure: a second process allocates while free memory is short (kswapd).',
	 [hog_oom_killed => 'hog OOM-killed']],
	[write_after_mark => 'Half the pages written after marking, then `MADV_PAGEOUT`.',
	 [written_kept => 'written kept', written_discarded => 'written lost', unwritten_discarded => 'unwritten lost']],
	[read_after_mark => 'Every page read after marking, then reclaim (does a read keep the page?).',
	 [read_before_pressure_intact => 'read before pressure intact']],
	[fork_cow => 'fork; the child keeps a non-volatile mapping, COW-breaks half; the parent marks; memcg reclaim.',
	 [child_lost_bytes => 'child lost B', child_inherits_volatile => 'child inherits vo',
	  parent_discarded_exclusive => 'parent lost (own)', parent_discarded_shared => 'parent lost (shared)']],
	[thp => 'Two THPs (`MADV_HUGEPAGE`, 2 MiB aligned) marked, then `MADV_PAGEOUT`.',
	 [thp_kb => 'THP kB', thp_kb_after_mark => 'THP kB marked']],
	[mremap => 'Half discarded, the VMA moved by `mremap`, the other half discarded at the new place.',
	 [discarded_before_move => 'lost before move', smaps_vo_after_move => 'vo after move']],
	[mprotect => 'Half made read-only while marked (VMA split), `MADV_PAGEOUT`, read-write again.',
	 [vmas_split => 'VMAs +', vmas_delta_after_unmark => 'VMAs after', readonly_read_sigbus => 'RO read SIGBUS']],
	[mlock_after_mark => '`mlock` after marking, then memcg reclaim: locked pages must stay.',
	 [mlock_errno => 'mlock errno']],
	[image_cache => 'The image cache: 256 objects of 32 KiB marked while unused, pressure, then each object is taken back, checked and regenerated if lost.',
	 [], 'cache'],
	[both_designs => 'Both designs on the same memory (A column: MADV_FREE on a volatile range; B column: vrange on lazily freed pages), half paged out, judged by the purged flag. `lost after unmark` counts pages a second `MADV_PAGEOUT` discarded after vrange(NONVOLATILE) had returned with nothing purged; NONVOLATILE cancels pending MADV_FREE as a write would (SPEC 4.4), and the test asserts 0.',
	 [discarded_after_unmark => 'lost after unmark']],
);

sub us {
	my ($ns) = @_;
	return '?' unless defined $ns && $ns =~ /^-?[\d.]+$/;
	return sprintf('%.0f ms', $ns / 1e6) if $ns >= 10_000_000;
	return sprintf('%.0f µs', $ns / 1000) if $ns >= 10_000;
	return sprintf('%.1f µs', $ns / 1000);
}

sub fmt_value {
	my ($k, $v) = @_;
	return 'null' unless defined $v;
	return us($v) . '/MiB' if $k =~ /^ns_.*_per_mib$/;
	return us($v) if $k =~ /^ns_/;
	return $v;
}

# One cell: what one design did in one variant/mode.
sub cell {
	my ($d, $extra, $style) = @_;
	my @p;
	$style //= '';
	if ($style eq 'cache') {
		push @p, "regenerated $d->{cache_regenerated}/$d->{cache_objects}"
			if defined $d->{cache_regenerated};
		push @p, (($d->{cache_wrong} // 0) ? "**wrong $d->{cache_wrong}**" : 'wrong 0');
		push @p, "detect $d->{detect}" if defined $d->{detect};
		push @p, "paged out $d->{objects_paged_out}" if defined $d->{objects_paged_out};
	} else {
		if (defined $d->{pages_discarded} && defined $d->{pages_marked}) {
			push @p, "lost $d->{pages_discarded}/$d->{pages_marked}";
		}
		if ($style ne 'nodiscard') {
			push @p, 'detect ' . ($d->{detect} // 'no loss');
			push @p, "read $d->{read_returns}" if defined $d->{read_returns};
		}
		for my $p (pairs @$extra) {
			my ($k, $label) = @$p;
			next unless exists $d->{$k};
			next if $k eq 'kernel_read_into' && !defined $d->{$k};
			push @p, "$label " . fmt_value($k, $d->{$k});
		}
	}
	push @p, "**garbage pages $d->{pages_garbage}**" if $d->{pages_garbage};
	if (defined $d->{lost_nonvolatile_bytes}) {
		push @p, $d->{lost_nonvolatile_bytes}
			? "**non-volatile bytes LOST $d->{lost_nonvolatile_bytes}**"
			: 'non-volatile intact';
	}
	return join('; ', @p);
}

# A cell with its test's failure or skip (the test: scenario_test/scn.DESIGN.SCENARIO).
sub design_cell {
	my ($m, $v, $mode, $design, $sc, $d) = @_;
	my ($name, undef, $extra, $style) = @$sc;
	my $t = mode_tests($m->{variants}{$v} // {}, $mode)->{"$PROG/scn.$design.$name"};
	my $res = $t ? $t->{result} : undef;
	if ($d) {
		my $c = cell($d, $extra, $style);
		return ($res // '') eq 'fail' ? "**FAIL**: $c" : $c;
	}
	return '**FAIL** (no figures)' if ($res // '') eq 'fail';
	return 'skip: ' . ($t->{reason} // '?') if ($res // '') eq 'skip';
	return '-';
}

sub scenario_tables {
	my ($m, $data) = @_;
	my $md = '';
	my %by;	# scenario -> "variant\0mode" -> design -> datum
	my %rows;	# "variant\0mode" -> 1: it has figures
	for my $x (@$data) {
		my $key = "$x->{variant}\0$x->{mode}";
		$rows{$key} = 1;
		$by{$x->{d}{scenario} // '?'}{$key}{$x->{d}{design} // '?'} = $x->{d};
	}
	# Rows with figures, and those with results but none (every design skipped).
	my $vs = $m->{variants} // {};
	my @row_order;
	for my $v (variant_names($m)) {
		for my $mode (ordered(\@MODE_ORDER, mode_names($vs->{$v}))) {
			my $key = "$v\0$mode";
			push @row_order, $key if $rows{$key} || grep { /^\Q$PROG\E\// } keys %{mode_tests($vs->{$v}, $mode)};
		}
	}

	my @cols = columns($data);
	my %known = map { $_->[0] => 1 } @SCENARIOS;
	my @extra_sc = map { [$_, 'A scenario this report has no description of.', [], ''] }
		sort grep { !$known{$_} } keys %by;
	for my $sc (@SCENARIOS, @extra_sc) {
		my ($name, $what) = @$sc;
		my (@rows, %none, @none);	# [variant, [modes], cells]; variant -> [modes] without figures
		for my $key (@row_order) {
			my ($v, $mode) = split /\0/, $key;
			my @d = map { $by{$name}{$key}{$_} } @cols;
			my @c = map { design_cell($m, $v, $mode, $cols[$_], $sc, $d[$_]) } 0 .. $#cols;
			if (!grep({ $_ } @d) && !grep({ /FAIL/ } @c)) {
				push @none, $v unless $none{$v};
				push @{$none{$v}}, $mode;
			} elsif (@rows && $rows[-1][0] eq $v && join(" | ", @{$rows[-1][2]}) eq join(" | ", @c)) {
				push @{$rows[-1][1]}, $mode;	# modes of one variant that saw the same share a row
			} else {
				push @rows, [$v, [$mode], \@c];
			}
		}
		$md .= "#### `$name`\n\n$what\n\n";
		$md .= md_table(['variant / mode', map { title($_) } @cols],
			map { ["$_->[0] / " . join(', ', @{$_->[1]}), @{$_->[2]}] } @rows) . "\n" if @rows;
		$md .= 'No figures from ' . join('; ', map { "$_ (" . join(', ', @{$none{$_}}) . ')' } @none) .
			" (the scenario was skipped or did not run there).\n\n" if @none;
	}
	return $md;
}

# --- (b) the reviewers' questions --------------------------------------

# The per-run accounting table (the appendix has it; the evidence sums it).
sub accounting_table {
	my ($data) = @_;
	my @runs = accounting_runs($data) or return '';
	return md_table(['variant / mode', 'design', 'scenario', 'pages found lost', 'vmstat counter', 'memcg counter',
			 'nr_lazyfree Δ', 'Rss drop kB', 'memcg anon Δ kB', 'memcg file Δ kB'], map { my $d = $_->{d};
		[where($_), $d->{design}, $d->{scenario}, $d->{pages_discarded} // '?', counted($d->{counter_discarded}),
		 counted($d->{memcg_counter_discarded}), $d->{nr_lazyfree_delta} // 'absent',
		 defined $d->{rss_kb_before} && defined $d->{rss_kb_after} ? $d->{rss_kb_before} - $d->{rss_kb_after} : '?',
		 $d->{memcg_anon_delta_kb} // '?', $d->{memcg_file_delta_kb} // '?'] } @runs);
}

# The /proc/vmstat event that counts a design's lost pages (VMAB::Designs),
# or undef: none does.
sub counter_name {
	my ($design) = @_;
	my $c = design($design)->{counter_discarded};
	return defined $c ? "`$c`" : undef;
}

# One line a design, "- A: vrange" and what $line->($design) gives (undef: no line).
sub per_design {
	my ($data, $line) = @_;
	return join('', map { my $l = $line->($_); defined $l ? '- ' . title($_) . "$l\n" : '' } columns($data));
}

# A figure over runs, as range_str gives it; where the runs were.
sub range_of { return range_str(sub { "$_[0]" }, @_) }
sub wheres { return join(', ', map { where($_) } @_) }

# What the runs marked, from their own figures ("8192 kB"; 4 KiB pages).
sub marked_kb {
	my (@xs) = @_;
	my %kb = map { 4 * ($_->{d}{pages_marked} // 0) => 1 } @xs;
	return join(' or ', map { "$_ kB" } sort { $a <=> $b } keys %kb);
}

sub q_accounting {
	my ($data, undef, $an) = @_;
	my %agree = %{$an->{accounting}} or return '';
	my $k = $an->{marking}{madv_free};
	return "Every run of `memcg_reclaim` and `madv_pageout`, pages found lost against the counters: " .
		"[the per-run table](#page-accounting-per-run) is in the appendix.\n\n" . per_design($data, sub {
		my $a = $agree{$_[0]} or return;
		my $ctr = counter_name($_[0]) // return ': no /proc/vmstat event counts its lost pages.';
		": $ctr in /proc/vmstat equalled the pages found lost in " . ($a->{equal} // 0) .
			' run(s), differed in ' . ($a->{differs} // 0) . ', was absent in ' . ($a->{absent} // 0) .
			'; in memory.stat it equalled them in ' . ($a->{cg_equal} // 0) . ', differed in ' .
			($a->{cg_differs} // 0) . ', was absent in ' . ($a->{cg_absent} // 0) . '.';
	}) . ($k ? '- ' . title('madv_free') . ': marking ' . marked_kb(@{$k->{runs}}) . " changed the cgroup's `lazyfree` by " .
		range_str(sub { "$_[0] kB" }, @{$k->{lazyfree_kb}}) . '; `pglazyfree` rose by ' . range_str(sub { "$_[0] pages" },
		@{$k->{pglazyfree}}) . '; the `nr_lazyfree` gauge by ' . range_str(sub { "$_[0] pages" }, @{$k->{nr_lazyfree}}) . ".\n" : '');
}

sub q_lru {
	my ($data, $m, $an) = @_;
	$m //= {};
	my $md = '';
	for my $design (columns($data)) {
		my $say = sub { $md .= '- ' . title($design) . join('', @_) . ".\n" };
		my $took = sub { 'took ' . range_of(map { $_->{d}{marked_taken} } @_) . ' marked pages, swapped out ' .
			range_of(map { $_->{d}{unmarked_swapped} } @_) . ' pages in use' };
		my @ro = reclaim_order($m, $design, 'off');
		$say->(', ' . ($ro[0]{d}{unmarked_pages} // '?') . ' pages in use and ' .
			($ro[0]{d}{marked_pages} // '?') . ' marked pages written after them, `memory.reclaim` ' .
			sprintf('of the marked size (`suite/reclaim_test.c`; goal: at least %.0f%% of the marked pages taken, ' .
				'at most %.0f%% of the others swapped out): ', map { 100 * $_ } @THRESHOLD{qw(first_taken first_swapped)}) .
			$took->(@ro) . ' (' . wheres(@ro) . ')') if @ro;
		for my $thp (qw(madvise always)) {
			my @t = reclaim_order($m, $design, $thp) or next;
			$say->(", the same with transparent huge pages `$thp`" .
				($thp eq 'always' ? ' (plain mappings; the goal asserted for A only)' : ' (aligned, `MADV_HUGEPAGE`)') .
				': ' . $took->(@t) . ', `memory.reclaim` returned ' .
				range_of(map { $_->{d}{memcg_reclaim_rc} // '?' } @t) . ' (' . wheres(@t) . ')');
		}
		my @oom = $design eq 'vrange' ? data_of_kind($m, 'noswap_oom') : ();
		$say->(', an OOM in a cgroup without swap (`suite/reclaim_test.c`; goal: no anon ' .
			'scan because another process holds volatile memory): `pgscan_anon` moved by ' .
			range_of(map { $_->{d}{pgscan_anon_without_volatile} } @oom) . ' without and ' .
			range_of(map { $_->{d}{pgscan_anon_with_volatile} } @oom) . ' with volatile memory ' .
			'elsewhere (how quickly the kill comes: the benchmarks, "An OOM next to marked memory"; ' . wheres(@oom) . ')')
			if @oom;
		my @np = of($data, $design, 'no_pressure');
		my @parts = map { my $lru = $_; my @v = grep { defined && $_ != -1 } map { $_->{d}{"mark_delta_kb_$lru"} } @np;
			@v ? "$lru " . range_str(sub { sprintf('%+d kB', $_[0]) }, @v) : () }
			qw(inactive_anon active_anon inactive_file active_file);
		$say->(', on marking ' . marked_kb(@np) . ' (memcg `memory.stat` change): ' .
			(@parts ? join('; ', @parts) : 'no memcg figures')) if @np;
		my $fp = $an->{first}{$design};	# the cells of a_lru's figure (Goals::first_pass)
		$say->(', swap on, `memory.reclaim` of exactly the marked size: took ' . range_of(map { $_->{taken} } @{$fp->{runs}}) .
			" of $fp->{marked} marked pages while swapping out " . range_str(sub { "$_[0] kB" }, map { $_->{swapped_kb} } @{$fp->{runs}}) .
			' of the unmarked memory (' . wheres(@{$fp->{runs}}) . ')') if $fp && !$fp->{source};
		my @ra = of($data, $design, 'read_after_mark');
		$say->(', pages read after marking, then reclaim: lost ' . range_of(map { $_->{d}{pages_discarded} } @ra) .
			' of ' . ($ra[0]{d}{pages_marked} // '?') . ' (pressure: ' .
			join(', ', sort keys %{{ map { ($_->{d}{pressure} // '?') => 1 } @ra }}) . ')') if @ra;
	}
	$md .= "\nWhat the reclaim-order test saw before old vrange patches 14 and 15 and madv-free patch 5 (now vrange 6/12 and madv-free 3/4): " .
		"`docs/design.md`, \"Figures before the fixes\".\n" if $md =~ /reclaim_test/;
	return $md;
}

# The scenarios of the pressure runs (those that may lose marked pages).
our @PRESSURE_SCN = qw(memcg_reclaim memcg_limit madv_pageout global_pressure write_after_mark
	read_after_mark fork_cow thp mremap mprotect mlock_after_mark);

sub q_sigbus {
	my ($data, undef, $an) = @_;
	return per_design($data, sub {
		my @xs = of($data, $_[0], @PRESSURE_SCN) or return;
		my @lost = grep { ($_->{d}{pages_discarded} // 0) > 0 } @xs;
		my @sb = grep { defined $_->{d}{sigbus_addr_code_right} } @lost;
		': in ' . scalar(@lost) . ' of ' . scalar(@xs) . ' pressure runs pages were lost; a read while still marked returned ' .
			(@lost ? tally('read_returns', @lost) : 'nothing to see') . '; detected by ' . (@lost ? tally('detect', @lost) : '-') .
			(@sb ? '; SIGBUS with `si_addr` = the page and `BUS_ADRERR` in ' .
				scalar(grep { $_->{d}{sigbus_addr_code_right} } @sb) . ' of ' . scalar(@sb) : '') .
			'; pages that were neither data nor zero: ' . sum(0, map { $_->{d}{pages_garbage} // 0 } @xs) . '.';
	}) . per_design($data, sub {
		my $c = $an->{cache}{$_[0]} or return;
		', image cache (' . design($_[0])->{detected_by} . '): regenerated ' . range_of(map { $_->{d}{cache_regenerated} } @{$c->{runs}}) .
			' of ' . ($c->{objects} // '?') . " objects; objects that came back wrong: $c->{wrong} in $c->{n} runs.";
	});
}

sub q_kernel {
	my ($data) = @_;
	return per_design($data, sub {
		my @xs = grep { defined $_->{d}{kernel_read_into} }
			of($data, $_[0], grep { $_ ne 'mlock_after_mark' } @PRESSURE_SCN) or return;
		': read(2) into it: ' . tally('kernel_read_into', @xs) . '; write(2) from it: ' .
			tally('kernel_write_from', @xs) . ' (' . scalar(@xs) . ' runs).';
	});
}

sub swapless_table {
	my ($data) = @_;
	my @runs = swapless_runs($data) or return '';
	return "Pages lost / marked, no swap device active (the `swapless` variant has `CONFIG_SWAP=n`).\n\n" .
		md_table(['variant / mode', 'design', @SWAPLESS_SCN], map { my $r = $_; map { my $design = $_;
			[$r->[0], title($design), map { my $d = $r->[1]{$design}{$_}; $d ? "$d->{pages_discarded}/$d->{pages_marked}" : '-' }
			 @SWAPLESS_SCN] } grep { $r->[1]{$_} } columns($data) } @runs) . "\n";
}

sub q_swapless {
	my ($data, $m, $an) = @_;
	my $tot = $an->{swapless};
	return '' unless %$tot;
	return "Runs of " . join(', ', map { "`$_`" } @SWAPLESS_SCN) . " with no swap device active " .
		"(the `swapless` variant has `CONFIG_SWAP=n`); [run by run](#purging-without-swap-per-run) in the appendix.\n\n" .
		per_design($data, sub { my $t = $tot->{$_[0]} // VMAB::Report::Goals::drop_swapless($m, $_[0]) or return;
			': pages were discarded without swap in ' . ($t->{purging} // 0) . " of $t->{runs} " . ($tot->{$_[0]}
			? 'pressure runs.' : 'runs of `MADV_PAGEOUT` on dirty pages (`suite/droppable_test.c`).') });
}

sub q_cost {
	my ($data, $m, $an) = @_;
	my $md = per_design($data, sub {
		my $c = $an->{marking}{$_[0]} or return;
		', in calls of ' . ($c->{chunk_kb} // '?') . ' KiB: mark ' . range_str(\&us, @{$c->{mark_per_mib}}) . ' per MiB (' .
			range_str(\&us, @{$c->{mark_per_call}}) . ' per call); read while marked ' . range_str(\&us, @{$c->{read_per_mib}}) .
			' per MiB; take back ' . range_str(\&us, @{$c->{take_back_per_mib}}) . ' per MiB (' . design($_[0])->{taken_back_by} . ').';
	}) . per_design($data, sub {
		my $c = $an->{cache}{$_[0]} or return;
		# (Its one marking call is below the guest clock's tick: not shown.)
		', image cache of ' . marked_kb(@{$c->{runs}}) . ': taking every object back, checking it and regenerating the lost ones ' .
			range_str(\&us, map { $_->{d}{ns_fetch_all} } @{$c->{runs}}) . '.';
	});
	return length $md ? "$md\n_Measured under " . uc($m->{accelerator} // '?') . (($m->{accelerator} // '') eq 'tcg'
		? ': absolute times are those of an emulator; compare the two designs within a row, not with real hardware' : '') .
		"._\n" : '';
}

# The whole run's safety figures (VMAB::Report::Goals::safety) in a line.
sub headline {
	my ($s) = @_;
	my $ok = !$s->{lost_nonvolatile_bytes} && !$s->{cache_wrong} && !$s->{garbage_pages} &&
		!$s->{undetected_vrange_losses};
	return ($ok ? '' : '**') .
		"Over $s->{runs} scenario runs: $s->{lost_nonvolatile_bytes} bytes of non-volatile memory lost, " .
		"$s->{cache_wrong} cache objects came back wrong, $s->{garbage_pages} pages held neither their data " .
		"nor zeros, $s->{undetected_vrange_losses} runs lost vrange pages without telling." .
		($ok ? '' : '**') . "\n\n";
}

# ---- the questions of 2014: one line each for the summary -------------

sub a_accounting {
	my ($data, $design, undef, $an) = @_;
	my $a = $an->{accounting}{$design} or return $NOT_MEASURED;
	my ($runs, $k) = ($a->{runs}, $an->{marking}{$design} // {});
	my $ctr = counter_name($design) // return 'no /proc/vmstat event counts its lost pages';
	my $s = "$ctr = pages lost in " . ($a->{equal} // 0) . " of $runs runs; memory.stat " .
		(($a->{cg_absent} // 0) == $runs ? 'has no counter' : 'equal in ' . ($a->{cg_equal} // 0) . " of $runs");
	return $s . ($design eq 'madv_free' && defined $k->{lazyfree}
		? "; its `lazyfree` rose $k->{lazyfree} kB on marking " . 4 * ($k->{marked} // 0) . ' kB' : '');
}

sub a_lru {
	my $g = $_[3]{first}{$_[1]} or return $NOT_MEASURED;	# ($data, $design, $m, $an)
	return sprintf('reclaim of the marked size took %s of %s marked pages, swapped %s kB unmarked (median, %d runs%s)',
		$g->{taken} // '?', $g->{marked} // '?', $g->{swapped_kb} // '?', $g->{n}, $g->{source}
		? " of `$g->{source}`, THP off; reclaim counts no page it drops, so memory.reclaim of that size goes on to swap" : '');
}

sub a_sigbus {
	my ($data, $design) = @_;
	my @lost = lost_alone($data, $design) or return $NOT_MEASURED;
	return 'a read of a lost page while marked gave ' . tally('read_returns', @lost) .
		'; garbage pages ' . sum(0, map { $_->{d}{pages_garbage} // 0 } @lost);
}

sub a_kernel {
	my ($data, $design) = @_;
	my @xs = grep { defined $_->{d}{kernel_read_into} } lost_alone($data, $design) or return $NOT_MEASURED;
	return 'read(2) into a lost page: ' . tally('kernel_read_into', @xs);
}

sub a_swapless {
	my $t = $_[3]{swapless}{$_[1]} or return $NOT_MEASURED;	# ($data, $design, $m, $an)
	return "discarded without swap in $t->{purging} of $t->{runs} pressure runs";
}

# A design that is no variant of scenario_test (VMAB::Designs no_scenarios)
# answers from its own tests where own_KEY($data, $design, $matrix, $an) exists,
# else as a_KEY does.
sub own_accounting {
	my (undef, $design, $m) = @_;
	my $g = VMAB::Report::Goals::drop_accounting($m, $design) or return $NOT_MEASURED;
	my $kb = sub { defined $_[0] ? sprintf('%+d kB', $_[0]) : '?' };
	return ($g->{still} == $g->{n} ? 'no counter moved' : 'a counter moved in ' . ($g->{n} - $g->{still}) . " of $g->{n} runs") .
		" (memcg_counter_discarded, memory.stat `pglazyfreed`: 0 in $g->{still} of $g->{n} runs) while memory.reclaim dropped " .
		($g->{dropped} // '?') . ' of ' . ($g->{pages} // '?') . ' pages; memory.stat on writing them: anon ' . $kb->($g->{anon_kb}) .
		', file LRU ' . $kb->($g->{file_lru_kb}) . ', anon LRU ' . $kb->($g->{anon_lru_kb}) . " (median, $g->{n} runs)";
}

sub own_swapless {
	my (undef, $design, $m) = @_;
	my $t = VMAB::Report::Goals::drop_swapless($m, $design) or return $NOT_MEASURED;
	return "dropped without swap in $t->{purging} of $t->{runs} runs (dirty pages, `MADV_PAGEOUT`)";
}

sub a_cost {
	my $c = $_[3]{marking}{$_[1]} or return $NOT_MEASURED;	# ($data, $design, $m, $an)
	return 'mark ' . us($c->{mark}) . '/MiB, take back ' . us($c->{take_back}) . "/MiB (median, $c->{n} runs)";
}

# [key, title, question]: q_KEY($data, $matrix, $an) gives its evidence
# (markdown), a_KEY($data, $design, $matrix, $an) its one-line answer per design.
our @QUESTIONS = (
	[accounting => 'Page accounting', 'Are discarded pages counted, and does the memory go back to the cgroup?'],
	[lru => 'LRU placement and aging', 'Where do marked pages sit, and does reclaim take them before other memory?'],
	[sigbus => 'SIGBUS or zero-fill', 'What does user space see when it touches a discarded page, and can it tell?'],
	[kernel => 'Kernel access to purged memory', 'What do read(2) into and write(2) from a discarded, still-marked page do?'],
	[swapless => 'Purging without swap', 'v11 purged only with swap; does it work with no swap device and with `CONFIG_SWAP=n`?'],
	[cost => 'Cost of marking', 'What does it cost to mark memory, to use it while marked and to take it back?'],
);

# The heading each question's evidence has (the summary links to it).
sub question_heading { my ($n, $title) = @_; return "Question $n: $title" }

# ({ n, key, title, question }, ...), numbered from 1
sub questions {
	my $n = 0;
	return map { my ($key, $title, $question) = @$_; { n => ++$n, key => $key, title => $title, question => $question } } @QUESTIONS;
}

# One answer per question, from this run's figures and its analysis
# ($an, VMAB::Report::Goals::analyse($m)): ({ n, key, title, question, vrange, madv_free }, ...)
sub answers {
	my ($m, $an) = ($_[0], $_[1] // VMAB::Report::Goals::analyse($_[0]));
	my @data = all_data($m);
	return map { my $q = $_; my ($answer, $own) = map { __PACKAGE__->can("${_}_$q->{key}") } qw(a own);
		     +{ %$q, map { $_ => design($_)->{does_not_apply}{$q->{key}} //
			((design($_)->{no_scenarios} && $own) || $answer)->(\@data, $_, $m, $an) } columns($m) } } questions();
}

# The evidence: what the scenarios are, then each question's figures.
#   section($matrix, $report_dir[, VMAB::Report::Goals::analyse($matrix)]) -> markdown (headings from level 3 down)
sub section {
	my ($matrix, $report_dir, $an) = (@_[0, 1], $_[2] // VMAB::Report::Goals::analyse($_[0]));
	my @data = all_data($matrix);
	my $md = "Each scenario of `suite/scenario_test.c` ran once per design in every variant and run-time mode " .
		"that has the design. Design **A** is volatile ranges (`vrange()`, John Stultz's v11 forward-ported), " .
		"design **B** is `MADV_FREE` (6.1's, made selectable). Design **C** (`MAP_DROPPABLE`) has no mark: where a " .
		"scenario applies to it, `suite/droppable_test.c` asks it and records it in the same shape. Every scenario also holds unmarked memory with " .
		"known content and checks it byte for byte. What each scenario does and what each design did there, " .
		"variant by variant and mode by mode, is in [the appendix](#scenarios-run-by-run).\n\n";
	$md .= "_No scenario figures in this run (suite/scenario_test did not run or printed no `# \@data` lines)._\n\n"
		unless @data;
	# Every question has its heading, figures or not: the summary links to it.
	for my $q (questions()) {
		my $body = per_design($matrix, sub { my $x = design($_[0])->{does_not_apply}{$q->{key}}; $x && ": $x." }) .
			__PACKAGE__->can("q_$q->{key}")->(\@data, $matrix, $an);
		$md .= '### ' . question_heading($q->{n}, $q->{title}) . "\n\n$q->{question}\n\n" .
			(length $body ? "$body\n" : "_${NOT_MEASURED}._\n\n");
	}
	return $md;
}

# The appendix: the per-run and per-cell tables (headings from level 3 down).
sub appendix {
	my ($matrix) = @_;
	my @data = all_data($matrix);
	my $md = "### Scenarios, run by run\n\n";
	$md .= "Cells show what was observed, not pass marks: " .
		"`lost N/M` is pages that read back as zero after the pressure out of those marked; `detect` is how user " .
		"space could tell (`purged_flag` from vrange(NONVOLATILE), `sigbus`, `zero_page` only by looking at " .
		"the content, `nothing`); `read` is what a read of a lost page returned while the range was still marked; " .
		"`non-volatile intact` is the unmarked memory checked byte for byte. " .
		"A cell starting with **FAIL** is a scenario whose assertions failed.\n\n";
	$md .= @data ? scenario_tables($matrix, \@data) : "_No scenario figures in this run._\n\n";
	my $acc = accounting_table(\@data);
	$md .= "### Page accounting, per run\n\n" . ($acc ? "$acc\n" : "_${NOT_MEASURED}._\n\n");
	my $sw = swapless_table(\@data);
	$md .= "### Purging without swap, per run\n\n" . ($sw || "_${NOT_MEASURED}._\n\n");
	return $md;
}

1;
