package VMAB::Tap;
# Parsing the results channel (ttyS1) of one boot.  /init frames each
# program's TAP 13 output (see suite/init.sh):
#   @@vmab hello variant=V kernel=K modes=M
#   @@vmab begin mode=M prog=P
#   ...TAP from P, including "# @data {json}" lines...
#   @@vmab end mode=M prog=P rc=N ms=N
#   @@vmab done
use strict;
use warnings;
use Exporter 'import';
use JSON::PP;

our @EXPORT_OK = qw(parse_results parse_tap_line to_tap);

# parse_tap_line($line) -> { result => pass|fail|skip, num, name, reason } or undef
sub parse_tap_line {
	my ($l) = @_;
	return undef unless $l =~ /^(not )?ok\s+(\d+)\s*(?:-\s*)?(.*?)\s*$/;
	my ($not, $num, $rest) = ($1, $2, $3);
	my ($name, $dir) = $rest =~ /^#\s*(.*)/ ? ('', $1)
		: split /\s+#\s*/, $rest, 2;
	my $t = { num => $num, name => $name, result => $not ? 'fail' : 'pass' };
	if (defined $dir && $dir =~ /^(SKIP|TODO)\b\S*\s*(.*)/i) {
		if (uc $1 eq 'SKIP') {
			$t->{result} = 'skip';	# "not ok # SKIP" is a skip too
			$t->{reason} = $2;
		} else {
			$t->{todo} = $2;
		}
	}
	return $t;
}

# parse_results($text) -> {
#   hello => {variant, kernel, modes} | undef, done => 0|1, errors => [...],
#   programs => [{mode, prog, rc, ms, planned, ran, skipped}],
#   tests => [{id => "prog/name", mode, prog, name, result, reason}],
#   data => [{mode, prog, ...json...}], bad_data => [lines] }
sub parse_results {
	my ($text) = @_;
	my %r = (hello => undef, done => 0, errors => [], programs => [],
		 tests => [], data => [], bad_data => []);
	my $cur;
	my $json = JSON::PP->new;
	for my $l (split /\r?\n/, $text) {
		$l =~ s/\r//g;
		if ($l =~ /^\@\@vmab hello (.*)/) {
			$r{hello} = { map { split /=/, $_, 2 } split ' ', $1 };
		} elsif ($l =~ /^\@\@vmab begin mode=(\S+) prog=(\S+)/) {
			$cur = { mode => $1, prog => $2, rc => undef, ms => undef,
				 planned => 0, ran => 0, skipped => 0 };
		} elsif ($l =~ /^\@\@vmab end mode=(\S+) prog=(\S+) rc=(\d+) ms=(-?\d+)/) {
			next unless $cur && $cur->{prog} eq $2 && $cur->{mode} eq $1;
			@$cur{qw(rc ms)} = ($3 + 0, $4 + 0);
			delete $cur->{last_run};
			push @{$r{programs}}, $cur;
			undef $cur;
		} elsif ($l =~ /^\@\@vmab done/) {
			$r{done} = 1;
		} elsif ($l =~ /^\@\@vmab error (.*)/) {
			push @{$r{errors}}, $1;
		} elsif (!$cur) {
			next;
		} elsif ($l =~ /^1\.\.(\d+)/) {
			$cur->{planned} += $1;
		} elsif ($l =~ /^#\s*\@data\s+(.*?)\s*$/) {
			my $d = eval { $json->decode($1) };
			if (ref $d eq 'HASH') {
				push @{$r{data}}, { %$d, mode => $cur->{mode}, prog => $cur->{prog} };
			} else {
				push @{$r{bad_data}}, $l;
			}
		} elsif ($l =~ /^#\s+RUN\s+(\S+) \.\.\./) {
			$cur->{last_run} = $1;	# kselftest harness
		} elsif (my $t = parse_tap_line($l)) {
			$cur->{ran}++;
			$cur->{skipped}++ if $t->{result} eq 'skip';
			# 6.1's harness prints "ok N # SKIP why" without the name.
			$t->{name} = $cur->{last_run} // "test$t->{num}"
				unless length $t->{name};
			$t->{name} =~ s/^global\.//;	# TEST() outside a fixture
			delete $cur->{last_run};
			push @{$r{tests}}, {
				%$t, mode => $cur->{mode}, prog => $cur->{prog},
				id => "$cur->{prog}/$t->{name}",
			};
		}
	}
	# A program cut off by a crash or timeout never printed its end line.
	if ($cur) {
		delete $cur->{last_run};
		push @{$r{programs}}, { %$cur, rc => -1 };
	}
	return \%r;
}

# to_tap($variant, $parsed) -> one TAP 13 stream for the variant, all modes.
sub to_tap {
	my ($variant, $r) = @_;
	my @t = @{$r->{tests}};
	my $s = "TAP version 13\n# variant $variant\n1.." . scalar(@t) . "\n";
	my $n = 0;
	for my $t (@t) {
		$n++;
		my $line = ($t->{result} eq 'fail' ? 'not ok' : 'ok') .
			" $n $t->{mode}/$t->{id}";
		$line .= " # SKIP $t->{reason}" if $t->{result} eq 'skip';
		$s .= "$line\n";
	}
	return $s;
}

1;
