package VMAB::Report;
# out/report/report.md and report.html, generated from matrix.json (and
# make host-bench's out/results/host-bench.json where it ran), in three
# layers: data (VMAB::Report::Data reads them), analysis
# (VMAB::Report::Goals computes each goal once, with the one table of
# thresholds) and render: the summary (VMAB::Report::Summary), the scenario
# evidence and appendix (VMAB::Report::Scenarios), the benchmarks
# (VMAB::Report::Bench), the later designs (VMAB::Report::After), plots
# (VMAB::Report::Plot) and HTML (VMAB::Report::Html).  The designs' columns
# come from VMAB::Designs; where the results came from, VMAB::Provenance.
use strict;
use warnings;
use Exporter 'import';
use File::Path qw(make_path);
use VMAB::File qw(spew);
use VMAB::Record qw(mode_tests mode_names);
use VMAB::Report::Html qw(md_to_html toc);
use VMAB::Report::Data qw(variant_names $NOT_MEASURED);
use VMAB::Provenance qw(sources);
use VMAB::Report::Goals;
use VMAB::Report::Summary;
use VMAB::Report::Scenarios;
use VMAB::Report::Bench;
use VMAB::Report::After;

our @EXPORT_OK = qw(write_report report_md variants_by_tests);

# One cell: the outcome over all modes of a variant, e.g. "pass", "skip",
# "FAIL 1/4", "pass 2 / skip 2".
sub cell {
	my ($m, $v, $id) = @_;
	my %n;
	my $x = $m->{variants}{$v};
	for my $mode (mode_names($x)) {
		my $t = mode_tests($x, $mode)->{$id} or next;
		$n{$t->{result}}++;
	}
	my $total = 0;
	$total += $_ for values %n;
	return '-' unless $total;
	return "**FAIL** $n{fail}/$total" if $n{fail};
	return (keys %n)[0] if keys %n == 1;
	return join(' / ', map { "$_ $n{$_}" } sort keys %n);
}

sub variants_by_tests {
	my ($m) = @_;
	my @v = variant_names($m);
	my %ids;
	for my $v (@v) {
		$ids{$_->{test}} = 1 for @{$m->{variants}{$v}{results} // []};
	}
	my $s = '| test | ' . join(' | ', @v) . " |\n";
	$s .= '|---' x (@v + 1) . "|\n";
	for my $id (sort keys %ids) {
		$s .= "| `$id` | " . join(' | ', map { cell($m, $_, $id) } @v) . " |\n";
	}
	return $s;
}

# "abcdef123456" of a commit or digest, "-dirty" kept.
sub short { my ($id) = @_; return '?' unless defined $id; return $id =~ /^([0-9a-f]{12})[0-9a-f]*(-dirty)?$/ ? $1 . ($2 // '') : $id }

# Where a variant's results came from: its run, the project and tree commits.
sub source_cell {
	my ($x) = @_;
	my $p = $x->{provenance} or return 'not recorded';
	return "$p->{run_id}: project `" . short($p->{project_commit}) . '`, tree `' . short($p->{tree_commit}) . '`';
}

sub summary {
	my ($m) = @_;
	my $s = "| variant | outcome | source | kernel | modes | config s | build s | boot s | unexpected results |\n";
	$s .= "|---|---|---|---|---|---|---|---|---|\n";
	for my $v (variant_names($m)) {
		my $x = $m->{variants}{$v};
		my $ph = $x->{phases} // {};
		$s .= sprintf("| %s | %s | %s | %s | %s | %s | %s | %s | %d |\n", $v,
			$x->{outcome} // '?', source_cell($x), $x->{kernel_release} // '?',
			join(', ', mode_names($x)),
			map({ defined $ph->{$_} ? sprintf('%.0f', $ph->{$_}) : '-' }
			    qw(config build)),
			defined $ph->{boot} ? sprintf('%.0f%s', $ph->{boot},
				$ph->{boot_reused} ? ' (reused)' : '') : '-',
			scalar @{$x->{problems} // []});
	}
	return $s;
}

sub problems {
	my ($m) = @_;
	my $s = '';
	for my $v (variant_names($m)) {
		my $x = $m->{variants}{$v};
		my @lines = map { "- $v: $_" } @{$x->{why} // []};
		for my $p (@{$x->{problems} // []}) {
			push @lines, "- $v $p->{mode} `$p->{id}`: $p->{what} (expected $p->{want}, got $p->{got})";
			push @lines, map { "    - `$_`" } @{$p->{why} // []};
		}
		$s .= join("\n", @lines) . "\n" if @lines;
	}
	return length $s ? $s : "None: every boot passed and matched what its configuration implies (VMAB::Expectations).\n";
}

# host_bench_line($host_bench) -> one line: the host kernel make host-bench
# ran on and when, or that it did not run.
sub host_bench_line {
	my ($h) = @_;
	return "Benchmarks natively on this host (`make host-bench`): $NOT_MEASURED.\n" unless $h;
	return "Benchmarks natively on this host (`make host-bench`): kernel $h->{host_kernel}, run " .
		VMAB::Report::Bench::when_ran($h->{generated}) . "; beside the guests' figures in [Benchmarks](#benchmarks).\n";
}

# The report, reader first (the answer before the evidence): a one-screen summary (what each
# design gives a user, the headline figures with one plot, the questions of
# 2014 answered in a line each), a table of contents, the evidence, what
# came after, and an appendix with the per-cell tables.  A bug in any
# section dies here and fails the run: nothing is swallowed.
# report_md($m, $dir[, host-bench.json's record (VMAB::Report::Data::host_bench)])
sub report_md {
	my ($m, $dir, $hb) = @_;
	my $md = "# Volatile ranges, MADV_FREE and MAP_DROPPABLE on Linux 6.1\n\n";
	$md .= "Generated $m->{generated} from `out/results/matrix.json`. ";
	$md .= "Kernel: Debian linux-source $m->{source_version}, QEMU $m->{qemu_version}, ";
	$md .= "accelerator **" . uc($m->{accelerator} // '?') . "**";
	$md .= ($m->{accelerator} // '') eq 'tcg'
		? ' (software emulation: absolute times are distorted, compare ratios measured in the same boot).'
		: '.';
	$md .= ' ' . clock_sentence($m);
	$md .= " Host kernel $m->{host_kernel}. " . provenance_sentence($m) . ' ' . verdict($m) . "\n\n";
	# Each goal computed once, for the summary and the benchmarks alike.
	my $goals = VMAB::Report::Goals::analyse($m, $hb);
	$md .= "## Summary\n\n" . VMAB::Report::Summary::section($m, $dir, $goals);
	$md .= "## Contents\n\n\0TOC\0\n";
	$md .= "## Variants\n\n" . summary($m) . "\n" . host_bench_line($hb) . "\n";
	$md .= "## What went wrong\n\n" . problems($m) . "\n";
	$md .= "## Scenarios and the questions of 2014\n\n" . VMAB::Report::Scenarios::section($m, $dir, $goals) . "\n";
	$md .= "## Benchmarks\n\n" . VMAB::Report::Bench::section($m, $dir, $goals) . "\n";
	$md .= "## What came after\n\n" . VMAB::Report::After::section($m) . "\n";
	$md .= "## Appendix: per-cell tables\n\n" . VMAB::Report::Scenarios::appendix($m) .
		"### Every test, by variant\n\nEach cell sums the run-time modes the variant ran.\n\n" .
		variants_by_tests($m) . "\n";
	# The contents list every heading after its own, down to level 3.
	my ($after) = $md =~ /\0TOC\0\n(.*)/s;
	my $toc = toc($after, 2, 3);
	$md =~ s/\0TOC\0\n/$toc\n/ or die "report: no place for the table of contents\n";
	return $md;
}

# clock_sentence($m) -> the guest's clocksource in one sentence: one name
# when every variant ran on the same, else each with its variants; a
# jiffies clock (4 ms steps) is said to be one.  Empty for a matrix.json
# from before /init named its clock.
sub clock_sentence {
	my ($m) = @_;
	my %by;
	for my $v (variant_names($m)) {
		my $c = $m->{variants}{$v}{clocksources} or next;
		push @{$by{join(' then ', @$c)}}, $v;
	}
	return '' unless %by;
	my @k = sort keys %by;
	my $s = 'Guest clocksource ' . (@k == 1 ? "**$k[0]**"
		: join(', ', map { "**$_** (" . join(', ', @{$by{$_}}) . ')' } @k));
	return $s . (grep({ /jiffies/ } @k)
		? ': a jiffies clock moves in 4 ms steps, so the benchmarks timed by it are flagged in "What went wrong".'
		: '.');
}

# provenance_sentence($m) -> where the results came from (VMAB::Provenance):
# one run, named with its commits and digests; or, loudly, each run and
# its variants, so that results of two trees are never read as one run.
sub provenance_sentence {
	my ($m) = @_;
	my @src = sources($m);
	return '' unless @src;
	return 'Where these results came from is not recorded (a matrix.json from before schema 2).'
		if @src == 1 && !$src[0]{recorded};
	my $one = sub {
		my ($r) = @_;
		return 'a run that recorded no provenance (before schema 2)' unless $r->{recorded};
		return "the run of $r->{run_id} (project `" . short($r->{project_commit}) . '`, tree `' .
			short($r->{tree_commit}) . '`, patches `' . short($r->{patch_digest}) . '`, QEMU ' .
			($r->{qemu_version} // '?') . ', ' . ($r->{compiler} // '?') . ')';
	};
	return 'Every variant comes from ' . $one->($src[0]) . '.' if @src == 1;
	my %trees = map { ($_->{tree_commit} // '?') => 1 } @src;
	return '**These results come from ' . scalar(@src) . ' runs, not one' .
		(keys %trees > 1 ? ', of ' . scalar(keys %trees) . ' different kernel trees' : '') . ':** ' .
		join('; ', map { $one->($_) . ': ' . join(', ', @{$_->{variants}}) } @src) .
		' (the [Variants](#variants) table names each variant\'s).';
}

# One sentence: did every variant pass and match what their configuration implies?
sub verdict {
	my ($m) = @_;
	my @v = variant_names($m);
	my @bad = grep { my $x = $m->{variants}{$_};
			 ($x->{outcome} // '') ne 'PASS' || @{$x->{problems} // []} } @v;
	return @bad ? '**Not clean: ' . join(', ', map { "$_ (" . ($m->{variants}{$_}{outcome} // '?') . ')' } @bad) .
		'**; see [What went wrong](#what-went-wrong).'
		: 'All ' . scalar(@v) . ' variants PASS, every result as its configuration implies.';
}

sub write_report {
	my ($m, $dir, $hb) = @_;
	make_path($dir);
	my $md = report_md($m, $dir, $hb);
	spew("$dir/report.md", $md);
	spew("$dir/report.html", md_to_html($md, 'Volatile ranges, MADV_FREE and MAP_DROPPABLE on Linux 6.1'));
	return "$dir/report.md";
}

1;
