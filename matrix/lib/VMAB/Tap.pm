package VMAB::Tap;
# Parsing the results channel (ttyS1) of one boot: /init frames each
# program's TAP 13 output (VMAB::Protocol).
use strict;
use warnings;
use Exporter 'import';
use JSON::PP;
use TAP::Parser;
use VMAB::Protocol qw(parse_frame);

our @EXPORT_OK = qw(parse_results parse_tap_line failure_excerpt);

# A failing result keeps at most this many of the "#" lines before it.
my $DIAG_KEEP = 400;

# tap_results(@lines) -> TAP::Parser's results for these lines, in order.
# One program's output between its begin and end lines is one TAP stream
# (a vmselftest run may hold several plans: each counts).
sub tap_results {
	return () unless @_;
	my $p = TAP::Parser->new({ tap => join('', map { "$_\n" } @_) });
	my @r;
	while (my $x = $p->next) {
		push @r, $x;
	}
	return @r;
}

# test_result($tap_parser_result) -> { result => pass|fail|skip, num, name,
# reason | todo | note } or undef: only a numbered "ok N" or "not ok N" is a
# result (TAP::Parser would number a bare "ok" itself).
sub test_result {
	my ($x) = @_;
	return undef unless $x->is_test && $x->raw =~ /^(?:not )?ok\s+\d/;
	(my $desc = $x->description) =~ s/^-\s*//;
	$desc =~ s/\s+$//;
	# A comment that is no SKIP or TODO stays in the description:
	# "not ok 1 khugepaged # exit status 1".
	my ($name, $note) = $desc =~ /^#\s*(.*)/ ? ('', $1) : split /\s+#\s*/, $desc, 2;
	my $t = { num => $x->number, name => $name // '', result => $x->is_actual_ok ? 'pass' : 'fail' };
	if ($x->has_skip) {
		$t->{result} = 'skip';	# "not ok # SKIP" is a skip too
		$t->{reason} = $x->explanation;
	} elsif ($x->has_todo) {
		$t->{todo} = $x->explanation;
	} elsif (defined $note && length $note) {
		$t->{note} = $note;
	}
	return $t;
}

# parse_tap_line($line) -> { result => pass|fail|skip, num, name, reason } or undef
sub parse_tap_line {
	my ($x) = tap_results($_[0]);
	return $x ? test_result($x) : undef;
}

# parse_results($text) -> {
#   hello => {variant, kernel, modes, clocksource} | undef, done => 0|1,
#   errors => [...],
#   programs => [{mode, prog, rc, ms, planned, ran, skipped, clocksource
#                 (the guest's clock when P ended; absent from older logs)}],
#   tests => [{id => "prog/name", mode, prog, name, result, reason,
#              diag => ["#" lines printed since the previous result]
#              (failures only)}],
#   data => [{mode, prog, ...json...}],
#   bad_data => [{mode, prog, line}]: "# @data" lines that are not one
#                JSON object (malformed, or cut off), which the judge
#                reports (VMAB::Expectations::data_problems) }
sub parse_results {
	my ($text) = @_;
	my %r = (hello => undef, done => 0, errors => [], programs => [],
		 tests => [], data => [], bad_data => []);
	my $cur;	# the program running: its frame and TAP lines so far
	for my $l (split /\r?\n/, $text) {
		$l =~ s/\r//g;
		my ($kind, $v) = parse_frame($l);
		if (!defined $kind) {
			push @{$cur->{lines}}, $l if $cur;
		} elsif ($kind eq 'hello') {
			$r{hello} = $v;
		} elsif ($kind eq 'begin') {
			$cur = { mode => $v->{mode}, prog => $v->{prog}, rc => undef, ms => undef, lines => [] };
		} elsif ($kind eq 'end') {
			next unless $cur && $cur->{prog} eq $v->{prog} && $cur->{mode} eq $v->{mode};
			@$cur{qw(rc ms)} = ($v->{rc} + 0, $v->{ms} + 0);
			$cur->{clocksource} = $v->{clocksource} if defined $v->{clocksource};
			push @{$r{programs}}, program(\%r, $cur);
			undef $cur;
		} elsif ($kind eq 'done') {
			$r{done} = 1;
		} else {
			push @{$r{errors}}, $v->{why};
		}
	}
	# A program cut off by a crash or timeout never printed its end line.
	push @{$r{programs}}, { %{program(\%r, $cur)}, rc => -1 } if $cur;
	return \%r;
}

# program(\%results, $frame) -> the program's record; its tests and @data
# go to %results.
sub program {
	my ($r, $f) = @_;
	my $p = { %$f{qw(mode prog rc ms)}, planned => 0, ran => 0, skipped => 0 };
	$p->{clocksource} = $f->{clocksource} if defined $f->{clocksource};
	my ($last_run, @diag);
	my $json = JSON::PP->new;
	for my $x (tap_results(@{$f->{lines}})) {
		my $l = $x->raw;
		if ($x->is_plan) {
			$p->{planned} += $x->tests_planned;
		} elsif ($l =~ /^#\s*\@data\b\s*(.*?)\s*$/) {
			my $d = eval { $json->decode($1) };
			if (ref $d eq 'HASH') {
				push @{$r->{data}}, { %$d, mode => $p->{mode}, prog => $p->{prog} };
			} else {
				push @{$r->{bad_data}}, { mode => $p->{mode}, prog => $p->{prog}, line => $l };
			}
		} elsif ($l =~ /^#\s+RUN\s+(\S+) \.\.\./) {
			$last_run = $1;	# kselftest harness
			@diag = ();
		} elsif ($x->is_comment) {
			push @diag, $l;
			shift @diag if @diag > $DIAG_KEEP;
		} elsif (my $t = test_result($x)) {
			$p->{ran}++;
			$p->{skipped}++ if $t->{result} eq 'skip';
			# 6.1's harness prints "ok N # SKIP why" without the name.
			$t->{name} = $last_run // "test$t->{num}"
				unless length $t->{name};
			$t->{name} =~ s/^global\.//;	# TEST() outside a fixture
			undef $last_run;
			$t->{diag} = [@diag] if $t->{result} eq 'fail';
			@diag = ();
			push @{$r->{tests}}, {
				%$t, mode => $p->{mode}, prog => $p->{prog},
				id => "$p->{prog}/$t->{name}",
			};
		}
	}
	return $p;
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

1;
