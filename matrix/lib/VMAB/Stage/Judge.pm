package VMAB::Stage::Judge;
# The judge stage: one boot's logs (console.log, results.log in its log
# folder) classified (VMAB::Classify), made into result records
# (VMAB::Record), judged against the variant's .config and
# matrix/known.tsv (VMAB::Expectations) and written as TAP.  The same code judges
# a fresh boot, a reused one and, for vmab judge and vmab report, the last
# boot again, so that a changed classifier, .config or known.tsv applies
# to all of them alike.
use strict;
use warnings;
use Exporter 'import';
use VMAB::Classify qw(classify);
use VMAB::File qw(slurp);
use VMAB::Expectations qw(load_config judge data_problems);
use VMAB::Record qw(results variant_record mode_names);
use VMAB::Results qw(write_tap);
use VMAB::Tap qw(parse_results);

our @EXPORT_OK = qw(judge_boot rejudge_matrix);

# judge_boot(name => V, dir => log folder, config => .config file | undef,
#            known => load_known(...), tap_dir => folder for V.tap,
#            timed_out => BOOL, flooded => BOOL, phases => {...}, release)
#   -> the variant's matrix.json record (VMAB::Record::variant_record)
sub judge_boot {
	my (%o) = @_;
	my ($n, $dir) = @o{qw(name dir)};
	my $parsed = parse_results(slurp("$dir/results.log"));
	my $verdict = classify(console => slurp("$dir/console.log"), results => $parsed,
			       timed_out => $o{timed_out}, variant => $n);
	if ($o{flooded}) {
		$verdict->{outcome} = 'FAIL';
		unshift @{$verdict->{why}}, 'console flood: killed the guest';
	}
	my @records = results($n, $parsed);
	# Without a .config (a developer's boot of a kernel built elsewhere)
	# there is nothing to judge the results by; a malformed "# @data"
	# line is a problem either way.
	my @problems = ((defined $o{config}
		? judge($o{known}, $n, load_config($o{config}), \@records, $parsed->{programs}) : ()),
		data_problems($parsed));
	write_tap($o{tap_dir}, $n, @records) if defined $o{tap_dir};
	my %ph = %{$o{phases} // {}};
	$ph{boot_timed_out} = 1 if $o{timed_out};
	$ph{boot_flooded} = 1 if $o{flooded};
	return variant_record(%$verdict{qw(outcome why splats)}, results => \@records, parsed => $parsed,
			      problems => \@problems, phases => \%ph, release => $o{release});
}

# rejudge_matrix($ctx, $matrix, $known) -> names judged again: each variant
# of matrix.json whose last boot left its logs, classified and judged again
# from them as judge_boot does after a boot (a build failure, or a boot
# whose driver died, has no modes and keeps its record).  The record keeps
# its phases, kernel release, run time and provenance.
sub rejudge_matrix {
	my ($ctx, $m, $known) = @_;
	my @done;
	for my $n (sort keys %{$m->{variants}}) {
		my $x = $m->{variants}{$n};
		my $dir = "$ctx->{logs}/$n";
		my @modes = mode_names($x);
		next unless -s "$dir/results.log" && @modes;
		my $ph = $x->{phases} // {};
		# A record from before boot_timed_out and boot_flooded were kept
		# says so in its why.
		my @why = @{$x->{why} // []};
		$m->{variants}{$n} = judge_boot(
			name => $n, dir => $dir, config => "$ctx->{out}/build/$n/.config",
			known => $known, tap_dir => $ctx->{results_dir},
			timed_out => $ph->{boot_timed_out} // scalar(grep { /before the timeout/ } @why),
			flooded => $ph->{boot_flooded} // scalar(grep { /^console flood/ } @why),
			phases => $ph, release => $x->{kernel_release});
		$m->{variants}{$n}{run_at} = $x->{run_at} if defined $x->{run_at};
		$m->{variants}{$n}{provenance} = $x->{provenance} if $x->{provenance};
		push @done, $n;
	}
	return @done;
}

1;
