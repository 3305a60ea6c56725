package VMAB::Report::Bench;
# The report's benchmark section: tables and gnuplot SVGs of the "# @data"
# records of suite/bench_*.c (kind "bench") and stress-ng, and the goals as
# VMAB::Report::Goals computed them (the summary reads the same), each with
# its threshold from the one table there; beside the churn and the
# discardable cache, the same figures natively on this host (make
# host-bench, Goals::host_vs_guest), or that they were not measured.
#   section($matrix, $report_dir[, Goals::analyse($matrix)]) -> markdown
#       (headings from level 3 down)
#   when_ran($iso_utc) -> "2026-12-07 05:13:04 UTC"
use strict;
use warnings;
use List::Util qw(min max uniq);
use VMAB::Report::Html qw(md_table);
use VMAB::Report::Plot qw(lines_svg bars_svg);
use VMAB::Report::Data qw(ordered collect collect_stressng $NOT_MEASURED @VARIANT_ORDER @MODE_ORDER);
use VMAB::Designs;
use VMAB::Report::Goals qw(%THRESHOLD);

*ratio = \&VMAB::Report::Goals::ratio;

# Mark-cost columns: [design, op, heading, field (default ns_median)].
# MADV_FREE's first call on fresh pages also moves them to the lazyfree
# LRU; the repeats find them there already, hence a column of its own.
our @MARK_COLS = (
	[dontneed => dontneed => 'MADV_DONTNEED'], [madv_free => madv_free => 'MADV_FREE'],
	[madv_free => madv_free => 'MADV_FREE, first call', 'ns_first'],
	[vrange => volatile => 'vrange VOLATILE'], [vrange => nonvolatile => 'NONVOLATILE'],
	[vrange => nonvolatile_purged => 'NONVOLATILE, all purged'],
	[vrange => nonvolatile_after_purge => 'NONVOLATILE, nothing purged, after a purge in the process'],
	[vrange => volatile_before_purge => 'VOLATILE, in the purge cycle'],
	[vrange => getppid => 'getppid() at the same point (control)'],
);
our @REFAULT_COLS = (
	[dontneed => refault => 'after MADV_DONTNEED'], [madv_free => refault => 'after MADV_FREE'],
	[vrange => refault => 'after vrange, not purged'], [vrange => refault_purged => 'after vrange, purged'],
);

sub t_ns {
	my ($ns) = @_;
	return '-' unless defined $ns;
	return sprintf('%.2f s', $ns / 1e9) if $ns >= 1e9;
	return sprintf('%.1f ms', $ns / 1e6) if $ns >= 1e6;
	return sprintf('%.1f µs', $ns / 1e3);
}

sub size_name {
	my ($b) = @_;
	for ([30, 'GiB'], [20, 'MiB'], [10, 'KiB']) {
		return ($b >> $_->[0]) . " $_->[1]" if $b >= (1 << $_->[0]) && !($b % (1 << $_->[0]));
	}
	return "$b B";
}

# " (1.8-2.3)": the range of a ratio over the rounds, where there were several.
sub spread {
	my ($x) = @_;
	return '' unless $x && defined $x->{ratio_min} && defined $x->{ratio_max} && ($x->{rounds} // 1) > 1;
	return sprintf(' (%.1f-%.1f)', $x->{ratio_min}, $x->{ratio_max});
}

sub fmt_x { my ($r) = @_; return defined $r ? sprintf('%.2fx', $r) : '-' }
sub fmt_n { my ($n) = @_; return defined $n ? sprintf($n >= 100 ? '%.0f' : '%.1f', $n) : '-' }
# "1.23x at 1 GiB vs 4 KiB": a growth between two range sizes.
sub at_vs { my ($g, $hi, $lo) = @_; return fmt_x($g) . ' at ' . size_name($hi) . ' vs ' . size_name($lo) }
sub met { my ($ok) = @_; return $ok ? 'met' : '**missed**' }
sub bold { my ($n) = @_; return $n ? "**$n**" : $n // '-' }
sub plural { my ($n, $word) = @_; return "$n $word" . ($n == 1 ? '' : 's') }

# Each section's heading, what it has figures of, and its opening text.
our %SECTION = (
	mark => ['Mark and unmark cost against range size', 'mark',
		"Median time of one call on a populated private anonymous range (THP off), " .
		"and of one write to every page afterwards (the refault), per range size. " .
		"Per variant, the run-time mode whose sweep reached the largest size.\n\n"],
	churn => ['Allocator churn (ebizzy-like)', 'churn',
		"Threads copy a random chunk into a freshly allocated one, search it and free it; " .
		"the free path is the design. Records/s, and the ratio to MADV_DONTNEED measured " .
		"in the same boot and mode (`keep` gives nothing back: the upper bound; `vma_flag` is a control: " .
		"MADV_DONTFORK on free and MADV_DOFORK on reuse, the VMA split and merge that marking a chunk " .
		"with vrange() costs, without any design code; `vrange_own_vma` is vrange() with a guard page " .
		"after each chunk, so each chunk is a VMA of its own and marking it splits nothing). " .
		"Each design runs in a process of its own. The designs run " .
		"interleaved in rounds, `keep` last in each; a ratio (and a share of `keep`) is the median " .
		"over the rounds of each round's, with its range over the rounds in brackets.\n\n"],
	pressure => ['Under memory pressure', 'pressure',
		"Churn and an object cache in one memory cgroup whose `memory.max` is below " .
		"their combined footprint; per design, in each run-time mode (with and without swap). " .
		"`pgvrange_purged` and `pswpout` exist only in /proc/vmstat, which counts events only with " .
		"CONFIG_VM_EVENT_COUNTERS; where it does not, the cgroup's own `pgsteal` (pages reclaimed) " .
		"and its swap peak stand in, and the cache's own count of pages it found discarded is exact.\n\n"],
	oom => ['An OOM next to marked memory', 'OOM',
		"A victim fills 8 MiB in a memory cgroup without swap (`memory.swap.max` 0); " .
		"`memory.reclaim` of that size finds nothing to take and `memory.max` 1M brings the OOM killer: " .
		"the time from `memory.reclaim` to the victim's death, while a holder process in another cgroup " .
		"keeps memory marked in the design (`none`: plain memory, the control). The designs alternate " .
		"within each round; the ratio is the median over the rounds of each round's ratio to `none`. " .
		"`pgscan_anon` must not move (there is no swap to go to), and the holder must lose nothing and " .
		"the victim die every round (the benchmark's own results). What it took before old vrange " .
		"patches 16 to 18 (now in vrange 6/12): `docs/design.md`, \"Figures before the fixes\".\n\n"],
	jemalloc => ['A real client: jemalloc', 'jemalloc',
		"Debian's jemalloc 5.3 under the same malloc churn (2 threads, blocks of 16 KiB to 1 MiB, " .
		"every block checked when freed) with `muzzy_decay_ms:-1` (lazy: purges with MADV_FREE where the " .
		"kernel has it, falls back to MADV_DONTNEED where it has not) and `muzzy_decay_ms:0` (forced: " .
		"MADV_DONTNEED), unconstrained and in a memory cgroup. `pglazyfree` is the /proc/vmstat delta " .
		"over the run: which path ran; `pglazyfreed`: lazily freed pages that reclaim took.\n\n"],
	stressng => ['A second opinion: stress-ng', 'stress-ng',
		"Debian's stress-ng 0.15, each stressor with `--verify`, once per variant: bogo operations " .
		"per second and stress-ng's exit status (0: no failure; its pass or failure is judged with the " .
		"tests, and a stressor the kernel cannot run, ksm without CONFIG_KSM, skips and has no figure). " .
		"Bogo operations compare variants under the same accelerator only.\n\n"],
);

sub intro {
	my ($key, $have) = @_;
	my ($title, $what, $text) = @{$SECTION{$key}};
	return "### $title\n\n$text" . ($have ? '' : "_No $what figures in this run._\n\n");
}

sub plot_ref { my ($file, $alt) = @_; return "![$alt]($file)\n\n" }

sub mark_section {
	my ($sweeps, $dir) = @_;
	my $md = intro('mark', !!(@$sweeps));
	return $md unless @$sweeps;
	for my $sw (@$sweeps) {
		my ($v, $mode, $t) = @$sw{qw(variant mode t)};
		my %sizes = map { $_->{size} => 1 } @{$sw->{data}};
		my @sizes = sort { $a <=> $b } keys %sizes;
		my @cols = grep { $t->{$_->[0]}{$_->[1]} } @MARK_COLS;
		my @rcols = grep { $t->{$_->[0]}{$_->[1]} } @REFAULT_COLS;
		# A column's figure at a size: its field, else the one asked, else ns_median.
		my $fig = sub { my ($c, $s, $f) = @_; ($t->{$c->[0]}{$c->[1]}{$s} // {})->{$f // $c->[3] // 'ns_median'} };
		$md .= "#### $v, $mode\n\n" . md_table(['size', (map { $_->[2] } @cols), map { "refault $_->[2]" } @rcols],
			map { my $s = $_; [size_name($s), map { t_ns($fig->($_, $s)) } @cols, @rcols] } @sizes) . "\n";
		for my $p (['mark', \@cols, 'mark cost', 'ns per call', 'mark cost against size'],
			   ['refault', \@rcols, 'refault per page', 'ns per page', 'refault cost per page', 'ns_per_page']) {
			my ($name, $cs, $title, $ylabel, $alt, $f) = @$p;
			next unless @$cs || $name eq 'mark';
			$md .= plot_ref(lines_svg($dir, "bench-$name-$v", { title => "$title, $v, $mode", xlabel => 'range size',
				ylabel => "$ylabel (median)", logx => 1, logy => 1 }, [map { $_->[2] } @$cs],
				[map { my $s = $_; [$s, map { $fig->($_, $s, $f) } @$cs] } @sizes]), "$alt, $v");
		}
		$md .= mark_verdict($sw);
	}
	return $md;
}

# Where the growth of one op happens: its largest step between neighbouring
# sizes, how flat it is above that step, and the VMAs the call added.
sub step_text {
	my ($bysize, $control) = @_;
	my @sz = sort { $a <=> $b } keys %$bysize;
	my ($at, $best) = (undef, 0);
	for my $i (1 .. $#sz) {
		my $r = ratio($bysize->{$sz[$i]}{ns_median}, $bysize->{$sz[$i - 1]}{ns_median}) // 0;
		($at, $best) = ($i, $r) if $r > $best;
	}
	return '' unless defined $at;
	my @above = map { $bysize->{$_}{ns_median} } @sz[$at .. $#sz];
	my ($mn, $mx) = (min(@above), max(@above));
	my $s = sprintf('Its largest step is %s, from %s at %s to %s at %s; from %s to %s it stays within %s. ',
		fmt_x($best), t_ns($bysize->{$sz[$at - 1]}{ns_median}), size_name($sz[$at - 1]),
		t_ns($bysize->{$sz[$at]}{ns_median}), size_name($sz[$at]), size_name($sz[$at]),
		size_name($sz[-1]), fmt_x(ratio($mx, $mn)));
	my %vmas = map { ($bysize->{$_}{vmas_added} // '?') => 1 } @sz;
	$s .= 'The call added ' . join(' or ', sort keys %vmas) . ' VMAs at every size ' .
		'(0: it set the flag of a whole VMA, with no page-table walk). ' if !$vmas{'?'};
	my ($c0, $c1) = map { ($control->{$_} // {})->{ns_median} } @sz[$at - 1, $at];
	return $s unless defined $c0 && defined $c1 && $c0 > 0;
	my $cr = $c1 / $c0;
	$s .= sprintf('The control, a getppid() timed at the same point, goes from %s to %s (%s) across ' .
		'the same step, ', t_ns($c0), t_ns($c1), fmt_x($cr));
	$s .= $cr >= sqrt($best)
		? 'so the step is what any system call costs after touching that much memory ' .
		  '(under TCG: the emulated TLB), not work that VOLATILE does per page.'
		: 'so the step is in VOLATILE itself.';
	return $s;
}

sub mark_verdict {
	my ($sw) = @_;
	my ($v, $t) = @$sw{qw(variant t)};
	my @lines;
	for my $c (grep { !$_->[3] } @MARK_COLS) {
		my $x = ($sw->{growth}{$c->[0]} // {})->{$c->[1]} or next;
		push @lines, "$c->[2]: " . at_vs(@$x{qw(ratio hi lo)});
	}
	my $md = @lines ? 'Growth from the smallest to the largest size: ' . join('; ', @lines) . ".\n\n" : '';
	my $x = $sw->{mark} or return $md;
	my ($g, $lo, $hi, $gc) = @$x{qw(ratio lo hi control)};
	if ($x->{flat}) {
		$md .= sprintf("Goal met in %s: vrange(VOLATILE) is flat in size (%s, within %dx).\n\n", $v, at_vs($g, $hi, $lo),
			$x->{threshold});
	} else {
		my $k = log($g) / log($hi / $lo);
		my $gm = (($sw->{growth}{madv_free} // {})->{madv_free} // {})->{ratio};
		$md .= sprintf("%s: vrange(VOLATILE) costs %s more at %s than at %s " .
			"(cost ~ size^%.2f; %.2f ns a page at %s", $x->{met}
				? sprintf('Goal met in %s as a ratio to the null call (%s once the getppid() ' .
					'control is divided out)', $v, fmt_x($g / $gc))
				: "**Goal missed in $v**",
			fmt_x($g), size_name($hi), size_name($lo),
			$k, $x->{big}{ns_per_page} // 0, size_name($hi));
		my $mf = $t->{madv_free}{madv_free}{$hi};
		$md .= sprintf(', against %.1f ns a page for MADV_FREE, whose cost ~ size^%.2f', $mf->{ns_per_page},
			log($gm) / log($hi / $lo)) if $mf && $gm;
		$md .= '). ' . step_text($t->{vrange}{volatile}, $t->{vrange}{getppid});
		$md .= "\n\n";
	}
	my $u = $sw->{unmark} or return $md;
	$md .= sprintf("vrange(NONVOLATILE) with nothing purged grows %s from %s to %s%s. ",
		fmt_x($u->{ratio}), size_name($u->{lo}), size_name($u->{hi}),
		defined $u->{adjusted} ? sprintf(', %s as a ratio to the getppid() control', fmt_x($u->{adjusted})) : '');
	$md .= sprintf('After a purge of the same range, which the unmark that reports it walks once, ' .
		'the next unmark with nothing purged grows %s from %s to %s%s. ',
		fmt_x($u->{after}), size_name($u->{after_lo}), size_name($u->{after_hi}),
		defined $u->{after_adjusted} ? sprintf(', %s as a ratio to the control', fmt_x($u->{after_adjusted})) : '')
		if defined $u->{after};
	$md .= "What it cost before old vrange patch 20 (now in vrange 1-3, 5 and 7 of 12): `docs/design.md`, \"Figures before the fixes\".\n\n";
	return $md;
}

sub churn_section {
	my ($m, $rows, $dir, $host) = @_;
	my $md = intro('churn', !!(@$rows));
	my $vs = host_table($host, uc($m->{accelerator} // '?'), 'churn');
	return $md . $vs unless @$rows;
	my @designs = VMAB::Report::Goals::bench_designs($m, 'churn', \@VMAB::Report::Goals::CHURN_DESIGNS);
	my @shown = grep { $_ ne 'dontneed' } @designs;
	for my $v (uniq map { $_->{variant} } @$rows) {
		my @mine = grep { $_->{variant} eq $v } @$rows;
		$md .= "#### $v\n\n" . md_table(['mode', 'threads', 'MADV_DONTNEED records/s',
			(map { "$_ / DONTNEED" } @shown), 'vrange / MADV_FREE'], map { my $r = $_;
			[$r->{mode}, $r->{threads}, fmt_n(($r->{by}{dontneed} // {})->{records_per_s}),
			 (map { fmt_x($r->{ratio}{$_}) . spread($r->{by}{$_}) } @shown), fmt_x($r->{vrange_vs_free})] } @mine) . "\n";
		$md .= plot_ref(bars_svg($dir, "bench-churn-$v", { title => "churn, records/s relative to MADV_DONTNEED, $v",
			ylabel => 'ratio to MADV_DONTNEED', hline => $THRESHOLD{free} },
			[@shown], [map { my $r = $_; ["$r->{mode}/$r->{threads}t", map { $r->{ratio}{$_} } @shown] } @mine]),
			"churn ratios, $v");
		$md .= where_time_goes((grep { $_->{mode} eq $mine[0]{mode} && $_->{threads} == 1 } @mine)[0], @designs);
	}
	return $md . $vs;
}

# Time per iteration split by phase, and the counters, of a churn row (1
# thread in the first mode); no row, nothing.
sub where_time_goes {
	my ($r, @designs) = @_;
	return '' unless $r;
	my %by = %{$r->{by}};
	return "Where the time goes ($r->{mode}, 1 thread; per iteration; records/s as a share of `keep`'s):\n\n" .
		md_table(['design', 'records/s vs keep', 'alloc', 'copy (with its faults)', 'search', 'free', 'page faults',
			  'pglazyfree', 'pgvrange_purged', 'purged reuses'], map {
			my ($dn, $x) = ($_, $by{$_});
			my $it = $x->{iterations} || 1;
			my $rk = $r->{keep}{$dn};
			[$dn, defined $rk ? sprintf('%.0f%%', 100 * $rk) : '-',
			 (map { t_ns($x->{"ns_${_}_per_iter"}) } qw(alloc copy search free)),
			 sprintf('%.1f', $x->{faults_per_iter} // 0),
			 (map { defined $x->{$_} ? sprintf('%.1f', $x->{$_} / $it) : '-' } qw(pglazyfree pgvrange_purged)),
			 $x->{purged_reuses} // '-'] } grep { $by{$_} } @designs) . "\n";
}

sub when_ran { my ($t) = @_; return ($t // '?') =~ /^(\S+)T(\d\d:\d\d:\d\d)Z$/ ? "$1 $2 UTC" : $t // '?' }

sub fmt_share { my ($r) = @_; return defined $r ? sprintf('%.3f', $r) : '-' }
sub fmt_count { my ($n) = @_; return defined $n ? 0 + sprintf('%.1f', $n) : '-' }

# Each figure of Goals::host_vs_guest: its name (design, then the row's
# keys) and how its values read.
our %HOST_FIGURE = (
	ratio_to_dontneed => ['%s / DONTNEED, %s', \&fmt_x], ratio_to_keep => ['%s / keep, %s', \&fmt_share],
	ns_lock => ['%s lock, %s', \&t_ns], ns_unlock => ['%s unlock, %s', \&t_ns],
	cache_regenerated => ['%s locks that said lost, %s', \&fmt_count],
	cache_false_alarms => ['%s false alarms, %s', \&fmt_count],
);

sub host_where {
	my ($r) = @_;
	return plural($r->{threads}, 'thread') if defined $r->{threads};
	return size_name($r->{size}) if defined $r->{size};
	return "pressure by $r->{pressure}";
}

# The variants and modes the guests' figures came from, "both (4 modes), ...".
sub host_cells {
	my (@rows) = @_;
	my %modes;
	for (map { @{$_->{cells}} } @rows) {
		my ($v, $mode) = split m{/}, $_, 2;
		$modes{$v}{$mode} = 1;
	}
	return 'none in this run' unless %modes;
	return join(', ', map { "`$_` (" . plural(scalar keys %{$modes{$_}}, 'mode') . ')' } ordered(\@VARIANT_ORDER, keys %modes));
}

# "0.71x (-29%)": host / guest, as a percentage too where that reads (0.5x to 2x).
sub moves {
	my ($r) = @_;
	return '-' unless defined $r;
	return fmt_x($r) . ($r >= 0.5 && $r <= 2 ? sprintf(' (%+.0f%%)', 100 * ($r - 1)) : '');
}

# host_table($host_vs_guest, $accel, $bench) -> the guests' figures of one
# benchmark beside this host's: a table, or a line that there are none.
sub host_table {
	my ($h, $accel, $bench) = @_;
	return "Guest ($accel) vs this host: $NOT_MEASURED (`make host-bench`, `docs/host-bench.md`).\n\n" unless $h;
	my @rows = grep { $_->{bench} eq $bench } @{$h->{rows}} or return '';
	my $md = "#### Guest ($accel) vs this host (kernel $h->{host_kernel}, " . when_ran($h->{generated}) . ")\n\n" .
		'The same program natively on this host (`make host-bench`, `docs/host-bench.md`: ' .
		join(', ', grep { defined } $h->{machine}, $h->{cpu}, defined $h->{cores} ? "$h->{cores} cores" : undef,
			defined $h->{swap} ? "swap $h->{swap}" : undef, defined $h->{lru} ? "$h->{lru} LRU" : undef) .
		'), beside the guests\' median over the variants and run-time modes that measured the same figure: ' .
		host_cells(@rows) . ". Host / guest is how far the figure moves on this host.\n\n";
	return $md . md_table(['figure', "guest ($accel): median (range, cells)", 'this host', 'host / guest'], map {
		my ($name, $f) = @{$HOST_FIGURE{$_->{figure}}};
		[sprintf($name, "`$_->{design}`", host_where($_)), !$_->{n} ? $NOT_MEASURED : $f->($_->{guest}) . ' (' .
			($_->{n} > 1 ? $f->($_->{guest_min}) . ' to ' . $f->($_->{guest_max}) . ", $_->{n} cells" : '1 cell') . ')',
		 $f->($_->{host}), moves($_->{ratio})] } @rows) . "\n";
}

# The discardable cache (suite/bench_discardable.c), where this host measured it.
sub discardable_host {
	my ($h, $accel) = @_;
	my $vs = host_table($h, $accel, 'discardable');
	return '' unless $h && length $vs;
	return "### A discardable cache: the guests beside this host\n\n" .
		"`bench_discardable`: one lock/unlock API over each design, the median time of one lock and one " .
		"unlock of a populated object per size, and the answers of its locks under pressure " .
		"(compared only under the same kind of pressure).\n\n$vs";
}

# A discard counter: /proc/vmstat's delta, else the memory cgroup's own
# (memory.stat has events even without CONFIG_VM_EVENT_COUNTERS).
sub counter { my ($x, $name) = @_; return $x->{$name} // $x->{"memcg_$name"} // '-' }
sub swap_out { my ($x) = @_; return defined $x->{pswpout} ? "$x->{pswpout} pages"
	: defined $x->{swap_peak_kb} ? "peak $x->{swap_peak_kb} kB" : '-' }

sub pressure_section {
	my ($press, $dir, @designs) = @_;
	my $md = intro('pressure', !!(%$press));
	return $md unless %$press;
	for my $v (ordered(\@VARIANT_ORDER, keys %$press)) {
		my @modes = ordered(\@MODE_ORDER, keys %{$press->{$v}});
		my %by = map { my $mode = $_; $mode => { map { $_->{design} => $_ } @{$press->{$v}{$mode}} } } @modes;
		$md .= "#### $v\n\n" . md_table(['mode', 'design', 'churn records/s', 'vs DONTNEED', 'cache accesses/s',
			'vs DONTNEED', 'regenerated', 'wrong', 'cache pages found discarded', 'reclaimed (memcg pgsteal)',
			'purged (vrange)', 'lazyfreed (MADV_FREE)', 'swap out', 'major faults', 'OOM kills'], map {
			my $mode = $_;
			map { my $x = $by{$mode}{$_};
			      [$mode, $_, fmt_n($x->{churn_records_per_s}), fmt_x($x->{churn_ratio_to_dontneed}),
			       fmt_n($x->{cache_ops_per_s}), fmt_x($x->{cache_ratio_to_dontneed}),
			       defined $x->{cache_regenerated} ? "$x->{cache_regenerated}/" . ($x->{cache_ops} // '?') : '-',
			       bold($x->{cache_wrong}), $x->{cache_pages_lost} // '-', $x->{memcg_pgsteal} // '-',
			       counter($x, 'pgvrange_purged'), counter($x, 'pglazyfreed'), swap_out($x),
			       $x->{memcg_pgmajfault} // '-', bold($x->{oom_kill})] } grep { $by{$mode}{$_} } @designs } @modes);
		$md .= "\n(An OOM-killed run shows what it did until the kill.)\n\n";
		for my $p (['cache', 'cache_ops_per_s', 'cache accesses/s'], ['churn', 'churn_records_per_s', 'churn records/s']) {
			my ($name, $key, $what) = @$p;
			$md .= plot_ref(bars_svg($dir, "bench-pressure-$name-$v", { title => "$what under pressure, $v", ylabel => $what },
				[@designs], [map { my $mode = $_; [$mode, map { ($by{$mode}{$_} // {})->{$key} } @designs] } @modes]),
				"pressure: $name, $v");
		}
	}
	return $md;
}

sub oom_section {
	my ($rows) = @_;
	my $md = intro('oom', !!(@$rows));
	return $md unless @$rows;
	my $ms = sub { defined $_[0] ? sprintf('%.1f ms', $_[0] / 1e6) : '-' };
	return $md . md_table([qw(variant mode design), 'marked pages', 'median (min-max)', 'vs none', 'pgscan_anon', 'kills',
			       'pages lost', 'purged'], map {
		my ($x, $dn) = @$_{qw(x design)};
		[$_->{variant}, $_->{mode}, $dn, $dn eq 'none' ? '-' : $x->{pages_marked} // '-',
		 $ms->($x->{ns_median}) . ' (' . $ms->($x->{ns_min}) . '-' . $ms->($x->{ns_max}) . ')',
		 fmt_x($_->{ratio}), bold($x->{pgscan_anon}),
		 ($x->{oom_kill} // -1) == ($x->{rounds} // 0) ? "$x->{oom_kill}/$x->{rounds}"
			: '**' . ($x->{oom_kill} // '?') . '/' . ($x->{rounds} // '?') . '**',
		 bold($x->{pages_discarded}), $x->{pgvrange_purged} // $x->{pglazyfreed} // '-'] } @$rows) . "\n";
}

our @JEMALLOC_PLACES = qw(none memcg);

sub jemalloc_section {
	my ($jem) = @_;
	my $md = intro('jemalloc', !!(%$jem));
	return $md unless %$jem;
	my @rows;
	for my $v (ordered(\@VARIANT_ORDER, keys %$jem)) {
		for my $mode (ordered(\@MODE_ORDER, keys %{$jem->{$v}})) {
			my %by;
			$by{$_->{cgroup} // 'none'}{$_->{config} // ''} = $_ for @{$jem->{$v}{$mode}};
			push @rows, map { my ($l, $f) = @{$by{$_}}{qw(lazy forced)};
				[$v, $mode, $_ eq 'none' ? 'none' : 'memory.max ' . (($l // $f)->{memory_max} // '?'),
				 fmt_n($l->{ops_per_s}), fmt_n($f->{ops_per_s}),
				 fmt_x($l->{ratio_to_forced} // ratio($l->{ops_per_s}, $f->{ops_per_s})),
				 $l->{pglazyfree} // '-', $f->{pglazyfree} // '-', $l->{pglazyfreed} // '-',
				 bold(($l->{corrupted} // 0) + ($f->{corrupted} // 0))] } grep { $by{$_} } @JEMALLOC_PLACES;
		}
	}
	return $md . md_table([qw(variant mode cgroup), 'lazy ops/s', 'forced ops/s', 'lazy / forced', 'pglazyfree lazy',
			       'pglazyfree forced', 'pglazyfreed lazy', 'corrupted'], @rows) . "\n";
}

our @STRESSORS = qw(madvise vm mmap mremap fork userfaultfd ksm);

sub stressng_section {
	my ($sng) = @_;
	my $md = intro('stressng', !!(%$sng));
	return $md unless %$sng;
	my @v = ordered(\@VARIANT_ORDER, keys %$sng);
	return $md . md_table(['stressor', @v], map { my $st = $_; [$st, map {
		my $x = $sng->{$_}{$st};
		!$x ? '-' : ($x->{rc} // 0) ? "**exit $x->{rc}**" : fmt_n($x->{bogo_ops_per_s}) . '/s'
	} @v] } uniq ordered(\@STRESSORS, map { keys %{$sng->{$_}} } @v)) . "\n";
}

sub threads { my ($x) = @_; return "$x->{variant} $x->{mode} " . plural($x->{threads}, 'thread') }

# The goals, one line per judged cell, in the order of the goals paragraph.
sub goals_summary {
	my ($churn, $sweeps, $oom) = @_;
	my ($free, $keep, $flat, $ot) = @THRESHOLD{qw(free keep flat oom)};
	my @l;
	for my $x (grep { defined $_->{free} } @$churn) {
		my ($dn, $mf) = @{$x->{by}}{qw(dontneed madv_free)};
		push @l, sprintf('- MADV_FREE vs MADV_DONTNEED churn, %s: %s (goal %dx: %s).%s', threads($x),
			fmt_x($x->{free}), $free, met($x->{free} >= $free), $x->{free} >= $free ? ''
			: sprintf(' Why: per iteration MADV_DONTNEED takes %.1f page faults and %s in the copy; ' .
				'MADV_FREE %.1f faults, %s in the copy and %s in madvise itself (the pte walk), so ' .
				'the saved faults are only part of an iteration (search and copy remain).',
				$dn->{faults_per_iter} // 0, t_ns($dn->{ns_copy_per_iter}),
				$mf->{faults_per_iter} // 0, t_ns($mf->{ns_copy_per_iter}), t_ns($mf->{ns_free_per_iter})));
	}
	my $vf = $THRESHOLD{vrange_vs_free};
	for my $x (grep { defined $_->{vrange_vs_free} } @$churn) {
		my ($vr, $mf) = @{$x->{by}}{qw(vrange madv_free)};
		push @l, sprintf('- vrange vs MADV_FREE churn, %s: %s (goal >= %dx: %s).%s', threads($x),
			fmt_x($x->{vrange_vs_free}), $vf, met($x->{vrange_vs_free} >= $vf),
			$x->{vrange_vs_free} >= $vf ? ''
			: sprintf(' Why: vrange spends %s a chunk in VOLATILE and %s in NONVOLATILE on reuse ' .
				'(two system calls, each splitting or merging the VMA under the mmap lock for writing), ' .
				'against %s in MADV_FREE; faults per iteration %.1f vs %.1f.',
				t_ns($vr->{ns_free_per_iter}), t_ns($vr->{ns_alloc_per_iter}), t_ns($mf->{ns_free_per_iter}),
				$vr->{faults_per_iter} // 0, $mf->{faults_per_iter} // 0));
	}
	for my $x (@$churn) {
		my @have = grep { defined $x->{keep}{$_->[0]} } @VMAB::Report::Goals::KEEP_DESIGNS or next;
		my $met = grep { $x->{keep}{$_->[0]} >= $keep } @have;
		push @l, sprintf('- Churn against keep (never giving memory back), %s: %s ' .
			'(goal at least %.0f%% for one design: %s).%s', threads($x),
			join(', ', map { sprintf('%s %.0f%%', $_->[1], 100 * $x->{keep}{$_->[0]}) } @have),
			100 * $keep, met($met),
			defined $x->{control} ? sprintf(' The VMA split and merge alone (the vma_flag control) reach %.0f%%.',
				100 * $x->{control}) : '');
	}
	for my $x (grep { defined } map { $_->{unmark} } @$sweeps) {
		push @l, sprintf('- vrange(NONVOLATILE) with nothing purged, %s %s: %s%s%s ' .
			'(goal within %dx as a ratio to the null call: %s).', $x->{variant}, $x->{mode}, at_vs(@$x{qw(ratio hi lo)}),
			defined $x->{adjusted} ? sprintf(', %s divided by the getppid() control', fmt_x($x->{adjusted})) : '',
			defined $x->{after} ? '; after a purge of the range, ' . at_vs(@$x{qw(after after_hi after_lo)}) .
				(defined $x->{after_adjusted} ? sprintf(', %s divided by the control', fmt_x($x->{after_adjusted})) : '') : '',
			$flat, met($x->{met}));
	}
	for my $x (grep { $_->{design} ne 'none' && defined $_->{ratio} } @$oom) {
		push @l, sprintf('- An OOM without swap next to %s memory, %s %s: %s the time with nothing marked, ' .
			'pgscan_anon %s (goal within %.2fx, no anon scan: %s).',
			VMAB::Designs::design($x->{design})->{marked_as}, $x->{variant}, $x->{mode},
			fmt_x($x->{ratio}), $x->{scan} // '-', $ot, met($x->{met}));
	}
	for my $x (grep { defined } map { $_->{mark} } @$sweeps) {
		push @l, sprintf('- vrange(VOLATILE) mark cost, %s %s: %s (goal flat, within %dx as a ratio to the null call: %s).',
			$x->{variant}, $x->{mode}, at_vs(@$x{qw(ratio hi lo)}), $flat, met($x->{met}));
		$l[-1] .= sprintf(' A getppid() timed at the same point grows %s over the same sizes%s.',
			fmt_x($x->{control}), $x->{control} >= $x->{ratio}
				? ': the growth is the emulated system call, not marking (see the mark section)' : '')
			if defined $x->{control};
	}
	return @l ? join("\n", @l) . "\n\n" : "No figure in this run bears on the goals (no design ran).\n\n";
}

sub section {
	my ($m, $dir, $an) = @_;
	$an //= VMAB::Report::Goals::analyse($m);
	my $accel = uc($m->{accelerator} // 'unknown');
	return "Accelerator: **$accel**. " . ($accel eq 'TCG'
		? 'Under TCG absolute times are distorted (every guest instruction is emulated), so ' : 'As ever, ') .
		"every ratio below compares figures measured in the same boot and run-time mode; " .
		"absolute numbers are only comparable within one table.\n\n" .
		"### The goals\n\nMADV_FREE >= $THRESHOLD{free}x MADV_DONTNEED on churn, vrange >= MADV_FREE " .
		"on churn, at least " . sprintf('%.0f%%', 100 * $THRESHOLD{keep}) . " of keep's churn for one design, " .
		"vrange's mark and unmark (nothing purged) cost flat in range size as a ratio to a null " .
		"system call at the same point, an OOM without swap within " . sprintf('%.2fx', $THRESHOLD{oom}) .
		" of its time with nothing marked elsewhere.\n\n" . goals_summary(@$an{qw(churn sweeps oom)}) .
		mark_section($an->{sweeps}, $dir) . churn_section($m, $an->{churn}, $dir, $an->{host}) .
		discardable_host($an->{host}, $accel) . pressure_section(collect($m, 'pressure'), $dir,
			VMAB::Report::Goals::bench_designs($m, 'pressure', \@VMAB::Report::Goals::PRESSURE_DESIGNS)) .
		oom_section($an->{oom}) . jemalloc_section(collect($m, 'jemalloc')) . stressng_section(collect_stressng($m));
}

1;
