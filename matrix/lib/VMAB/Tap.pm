package VMAB::Tap;
# Parsing the results channel (ttyS1) of one boot.  /init frames each
# program's TAP 13 output (see suite/init.sh):
#   @@vmab hello variant=V kernel=K modes=M clocksource=C
#   @@vmab begin mode=M prog=P
#   ...TAP from P, including "# @data {json}" lines...
#   @@vmab end mode=M prog=P rc=N ms=N clocksource=C
#   @@vmab done
use strict;
use warnings;
use Exporter 'import';
use JSON::PP;

our @EXPORT_OK = qw(parse_results parse_tap_line to_tap failure_excerpt);

# A failing result keeps at most this many of the "#" lines before it.
my $DIAG_KEEP = 400;

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
	} elsif (defined $dir && length $dir) {
		$t->{note} = $dir;	# "not ok 1 khugepaged # exit status 1"
	}
	return $t;
}

# parse_results($text) -> {
#   hello => {variant, kernel, modes, clocksource} | undef, done => 0|1,
#   errors => [...],
#   programs => [{mode, prog, rc, ms, planned, ran, skipped, clocksource
#                 (the guest's clock when P ended; absent from older logs)}],
#   tests => [{id => "prog/name", mode, prog, name, result, reason,
#              diag => ["#" lines printed since the previous result]
#              (failures only)}],
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
				 planned => 0, ran => 0, skipped => 0, diag => [] };
		} elsif ($l =~ /^\@\@vmab end mode=(\S+) prog=(\S+) rc=(\d+) ms=(-?\d+)(?:.* clocksource=(\S+))?/) {
			next unless $cur && $cur->{prog} eq $2 && $cur->{mode} eq $1;
			@$cur{qw(rc ms)} = ($3 + 0, $4 + 0);
			$cur->{clocksource} = $5 if defined $5;
			delete @$cur{qw(last_run diag)};
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
			$cur->{diag} = [];
		} elsif ($l =~ /^#/) {
			my $d = $cur->{diag};
			push @$d, $l;
			shift @$d if @$d > $DIAG_KEEP;
		} elsif (my $t = parse_tap_line($l)) {
			$cur->{ran}++;
			$cur->{skipped}++ if $t->{result} eq 'skip';
			# 6.1's harness prints "ok N # SKIP why" without the name.
			$t->{name} = $cur->{last_run} // "test$t->{num}"
				unless length $t->{name};
			$t->{name} =~ s/^global\.//;	# TEST() outside a fixture
			delete $cur->{last_run};
			$t->{diag} = $cur->{diag} if $t->{result} eq 'fail';
			$cur->{diag} = [];
			push @{$r{tests}}, {
				%$t, mode => $cur->{mode}, prog => $cur->{prog},
				id => "$cur->{prog}/$t->{name}",
			};
		}
	}
	# A program cut off by a crash or timeout never printed its end line.
	if ($cur) {
		delete @$cur{qw(last_run diag)};
		push @{$r{programs}}, { %$cur, rc => -1 };
	}
	return \%r;
}

# failure_excerpt($test) -> the few lines that say why a failed result
# failed: its own note ("exit status 1"), then the "#" lines before it that
# name a failure (a harness "Expected ..." line, a selftest's "Fail" or
# "Timeout"), else the last few; colour codes removed, long lines cut.
sub failure_excerpt {
	my ($t, $max) = @_;
	$max //= 10;
	my @d = map { s/\e\[[0-9;]*[A-Za-z]//gr =~ s/^#\s*//r =~ s/\s+$//r }
		@{$t->{diag} // []};
	@d = grep { length } @d;
	my @hit = grep { /\b(fail(s|ed|ure)?|timeout|timed out|expected|error|bail out|put back)\b/i } @d;
	@hit = @d[($#d - 4 < 0 ? 0 : $#d - 4) .. $#d] unless @hit;
	@hit = @hit[$#hit - $max + 1 .. $#hit] if @hit > $max;
	unshift @hit, $t->{note} if defined $t->{note};
	return map { length > 200 ? substr($_, 0, 197) . '...' : $_ } @hit;
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
