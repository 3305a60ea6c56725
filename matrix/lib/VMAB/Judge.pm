package VMAB::Judge;
# The expected-results table (matrix/expected.tsv) and judging a boot's
# results against it.
#
# The table: a header line "test <variant> <variant> ...", then one row per
# test id ("program/test"), one cell per variant, and an optional
# "# reason" that says why a cell expects a skip.  A cell is a
# comma-separated list of OUTCOME or MODEGLOB=OUTCOME; the first entry whose
# glob matches the run-time mode wins, a bare OUTCOME matches every mode.
# OUTCOME is pass or skip ("fail" is never expected).
#   vrange_test/purge_by_memcg_reclaim  skip  pass  skip  pass  pass  pass  # CONFIG_VRANGE=n
#   base_test/swap_state_matches_mode   pass  pass  pass  pass  pass  pass
use strict;
use warnings;
use Exporter 'import';
use VMAB::Tap qw(failure_excerpt);

our @EXPORT_OK = qw(load_expected expected_for judge);

sub load_expected {
	my ($file) = @_;
	open(my $fh, '<', $file) or die "cannot read $file: $!\n";
	my (@cols, %rows);
	while (my $l = <$fh>) {
		chomp $l;
		next if $l =~ /^\s*(#|$)/;
		my ($cells, $reason) = split /\s+#\s*/, $l, 2;
		my ($id, @c) = split ' ', $cells;
		if (!@cols) {
			die "$file:$.: the first line must be 'test <variant>...'\n"
				unless $id eq 'test' && @c;
			@cols = @c;
			next;
		}
		die "$file:$.: $id has " . scalar(@c) . ' cells for ' .
			scalar(@cols) . " variants\n" unless @c == @cols;
		die "$file:$.: $id is listed twice\n" if $rows{$id};
		my %cell;
		for my $i (0 .. $#cols) {
			my @alt;
			for my $e (split /,/, $c[$i]) {
				my ($glob, $out) = $e =~ /=/ ? split(/=/, $e, 2) : ('*', $e);
				die "$file:$.: bad outcome '$out' for $id\n"
					unless $out =~ /^(pass|skip)$/;
				push @alt, [glob_re($glob), $out];
			}
			$cell{$cols[$i]} = \@alt;
		}
		$rows{$id} = { cells => \%cell, reason => $reason // '', line => $. };
	}
	die "$file: no header line\n" unless @cols;
	return { variants => \@cols, rows => \%rows };
}

sub glob_re {
	my ($g) = @_;
	(my $re = quotemeta $g) =~ s/\\\*/.*/g;
	return qr/^$re$/;
}

# expected_for($table, $id, $variant, $mode) -> 'pass' | 'skip' | undef
sub expected_for {
	my ($t, $id, $variant, $mode) = @_;
	my $row = $t->{rows}{$id} or return undef;
	my $alts = $row->{cells}{$variant} or return undef;
	for my $a (@$alts) {
		return $a->[1] if $mode =~ $a->[0];
	}
	return undef;
}

# judge($table, $variant, $parsed_results) -> list of problems, each
# { mode, id, want, got, what }, and for a failure, why => [lines] (the
# test's own words, failure_excerpt).  Only rows of programs that ran in a mode
# are expected there, so a run of some programs (make bench) judges those.
sub judge {
	my ($t, $variant, $r) = @_;
	die "variant $variant has no column in the expected table\n"
		unless grep { $_ eq $variant } @{$t->{variants}};
	my @bad;
	my %seen;
	for my $x (@{$r->{tests}}) {
		my $key = "$x->{mode}\0$x->{id}";
		push @bad, { %$x{qw(mode id)}, want => '-', got => $x->{result},
			     what => 'reported twice' } if $seen{$key}++;
		my $want = expected_for($t, $x->{id}, $variant, $x->{mode});
		if (!defined $want) {
			push @bad, { mode => $x->{mode}, id => $x->{id}, want => '-',
				     got => $x->{result}, what => 'not in the expected table' };
		} elsif ($want ne $x->{result}) {
			push @bad, { mode => $x->{mode}, id => $x->{id}, want => $want,
				     got => $x->{result},
				     what => $x->{result} eq 'fail' ? 'unexpected failure'
				     : "unexpected $x->{result}",
				     ($x->{result} eq 'fail'
				      ? (why => [failure_excerpt($x)]) : ()) };
		}
	}
	for my $id (sort keys %{$t->{rows}}) {
		my ($prog) = split m{/}, $id;
		for my $p (grep { $_->{prog} eq $prog } @{$r->{programs}}) {
			next if $seen{"$p->{mode}\0$id"};
			next unless defined expected_for($t, $id, $variant, $p->{mode});
			push @bad, { mode => $p->{mode}, id => $id,
				     want => expected_for($t, $id, $variant, $p->{mode}),
				     got => 'missing', what => 'missing test' };
		}
	}
	return @bad;
}

1;
