package VMAB::Record;
# The one result record: a flat list of test results, one a test, mode and
# variant, in the shape KernelCI's KCIDB uses for tests:
#   { variant, mode, test => "prog/name", status => pass|fail|skip,
#     reason (a skip's), excerpt => [lines] (a failure's own words) }
# It is made once from a boot's results log (results) and then read by
# the judge (VMAB::Expectations), by the TAP writer (to_tap), by the driver's
# summary lines and by the report (mode_tests, mode_names): matrix.json
# keeps it as each variant's "results".
use strict;
use warnings;
use Exporter 'import';
use Hash::Util::FieldHash qw(fieldhash);
use VMAB::Tap qw(failure_excerpt);

our @EXPORT_OK = qw(results to_tap mode_tests mode_names prog_of variant_record counts);

# results($variant, $parsed) -> the records of VMAB::Tap::parse_results's tests
sub results {
	my ($variant, $r) = @_;
	return map {
		{ variant => $variant, mode => $_->{mode}, test => $_->{id}, status => $_->{result},
		  (defined $_->{reason} ? (reason => $_->{reason}) : ()),
		  ($_->{result} eq 'fail' ? (excerpt => [failure_excerpt($_)]) : ()) }
	} @{$r->{tests}};
}

# prog_of("prog/name") -> "prog"
sub prog_of { $_[0] =~ m{^([^/]*)} ? $1 : '' }

# to_tap($variant, @records) -> one TAP 13 stream for the variant, all modes.
sub to_tap {
	my ($variant, @t) = @_;
	my $s = "TAP version 13\n# variant $variant\n1.." . scalar(@t) . "\n";
	my $n = 0;
	for my $t (@t) {
		$n++;
		my $line = ($t->{status} eq 'fail' ? 'not ok' : 'ok') . " $n $t->{mode}/$t->{test}";
		$line .= " # SKIP $t->{reason}" if $t->{status} eq 'skip';
		$s .= "$line\n";
	}
	return $s;
}

# The report asks for every cell of its tables: each results list is
# indexed once (by mode, then test), the index kept as long as the list
# lives (a field hash forgets a list when it is freed) and made again if
# the list has grown.  A scan a cell made a 7-variant, 600-test report
# take 7 s instead of 0.1 s.
fieldhash my %INDEX;

sub index_of {
	my ($x) = @_;
	my $list = $x->{results} // return { n => 0, by => {} };
	my $i = $INDEX{$list};
	if (!$i || $i->{n} != @$list) {
		$i = $INDEX{$list} = { n => scalar @$list, by => {} };
		for my $r (@$list) {
			$i->{by}{$r->{mode}}{$r->{test}} = { result => $r->{status},
				(defined $r->{reason} ? (reason => $r->{reason}) : ()) };
		}
	}
	return $i;
}

# mode_tests($variant_record, $mode) -> { "prog/name" => { result, reason } }:
# one mode's results, as the report's tables look them up.
sub mode_tests {
	my ($x, $mode) = @_;
	return index_of($x)->{by}{$mode} // {};
}

# mode_names($variant_record) -> the modes it ran (a program or a result), sorted
sub mode_names {
	my ($x) = @_;
	my %m = map { $_ => 1 } keys %{$x->{modes} // {}}, keys %{index_of($x)->{by}};
	return sort keys %m;
}

# counts($variant_record) -> { pass => n, skip => n, fail => n, all => n }
sub counts {
	my ($x) = @_;
	my %n = (pass => 0, skip => 0, fail => 0, all => 0);
	for (@{$x->{results} // []}) {
		$n{$_->{status}}++;
		$n{all}++;
	}
	return \%n;
}

# variant_record(outcome => ..., why => [...], [splats], [problems], [phases],
#                [release], [results => [records]], [parsed => VMAB::Tap])
#   -> a variant's matrix.json record:
# { outcome, why, splats, problems, phases, kernel_release, run_at,
#   results => [records], modes => { MODE => { programs => { PROG => {rc, ms,
#   planned, ran, clocksource} }, data => [ { prog, ...figures... } ] } } }
# The one constructor: a built and booted variant, a build failure and a
# boot whose driver process died all get their record here.
sub variant_record {
	my (%o) = @_;
	my $r = $o{parsed} // { programs => [], data => [] };
	my %modes;
	for my $p (@{$r->{programs}}) {
		$modes{$p->{mode}}{programs}{$p->{prog}} =
			{ (map { $_ => $p->{$_} } qw(rc ms planned ran)),
			  (defined $p->{clocksource} ? (clocksource => $p->{clocksource}) : ()) };
	}
	my @clocks = grep { defined } ($r->{hello} // {})->{clocksource},
		map { $_->{clocksource} } @{$r->{programs}};
	my %seen;
	for my $d (@{$r->{data}}) {
		my %fig = %$d;
		my $mode = delete $fig{mode};
		push @{$modes{$mode}{data}}, \%fig;
	}
	return {
		outcome => $o{outcome},
		why => $o{why} // [],
		splats => $o{splats} // [],
		problems => $o{problems} // [],
		phases => $o{phases} // {},
		(defined $o{release} ? (kernel_release => $o{release}) : ()),
		run_at => scalar gmtime,
		(@clocks ? (clocksource => $clocks[-1],
			    clocksources => [grep { !$seen{$_}++ } @clocks]) : ()),
		results => $o{results} // [],
		modes => \%modes,
	};
}

1;
