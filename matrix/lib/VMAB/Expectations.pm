package VMAB::Expectations;
# Judging a boot's results against what the variant's .config implies
# (SPEC 7): a test passes unless it needs something the variant or the mode
# lacks, and then it skips, saying what.  What a test needs is what it
# declares (VMAB::Needs: VMAB_NEEDS lines in the programs, needs= in
# suite/selftests.list); every test of the suite declares it
# (matrix/t/suite_names.t), and its name says nothing to the judge.
# A skip's reason is read too ("needs CONFIG_X", "CONFIG_X=n": X on;
# "CONFIG_X=y": X off; else an option it names as VMAB::Designs and the
# optional features below name it, "no vrange()"; "swap device": an
# active swap device), as a check on the declaration:
#   - a declared test is expected to skip when a declared need is unmet,
#     to pass when all are met; and a skip whose reason names a need the
#     declaration does not list, or lists the other way, is unexpected
#     whatever the .config, since the declaration then does not say when
#     the test runs (fix the VMAB_NEEDS line, or the test);
#   - a test that declares nothing (a result of a program the sources no
#     longer have) is expected to pass, or to skip for want of what its
#     reason names and this variant or mode lacks.
# So a skip whose reason names an option the .config has, a skip of a test
# whose declared needs are all met, or a pass of a test that needs an
# option the .config lacks, is unexpected.
# matrix/known.tsv lists the exceptions, each with its reason (load_known).
# A benchmark (a bench_* program) that ended on a jiffies clocksource timed
# itself in 4 ms steps: that is unexpected too (clock_problems); so is a
# "# @data" line that is not one JSON object, whose figures would otherwise
# be lost without a word (data_problems).
use strict;
use warnings;
use Exporter 'import';
use VMAB::File qw(slurp);
use VMAB::Designs qw(designs);
use VMAB::Kconfig qw(parse_config);
use VMAB::Needs qw(load_declarations needs_of glob_re);
use VMAB::Record qw(prog_of);
use VMAB::Variants qw(mode_traits);

our @EXPORT_OK = qw(load_known load_config expect judge data_problems);

# The options a skip reason may name without its CONFIG_ symbol, and how it
# names them (a SIGBUS on a purged page is design A's alone).
# The designs' rows come from their one table (VMAB::Designs).
my @NAMED = (
	(map { [$_->{kconfig} => $_->{names}] } designs()),
	[CONFIG_TRANSPARENT_HUGEPAGE => qr/(?<![a-z])(?:thp|khugepaged|transhuge)/i],
	[CONFIG_KSM => qr/(?<![a-z])ksm/i],
	[CONFIG_MEMCG => qr/(?<![a-z])memcg/i],
	[CONFIG_LRU_GEN => qr/(?<![a-z])lru_gen/i],
);

# load_known($file, [$suite]) -> [{test, variant, mode (globs as regexes),
# outcome, why, line}], then, given the suite's folder, its declarations
# ({test, needs, where}: VMAB::Needs::load_declarations).
# One exception a line, five tab-separated fields:
#   test glob <TAB> variant glob <TAB> mode glob <TAB> pass|skip <TAB> why
sub load_known {
	my ($file, $suite) = @_;
	open(my $fh, '<', $file) or die "cannot read $file: $!\n";
	my @rows;
	while (my $l = <$fh>) {
		chomp $l;
		next if $l =~ /^\s*(#|$)/;
		my @f = split /\t/, $l;
		die "$file:$.: want five tab-separated fields: test, variant, mode, outcome, why\n"
			unless @f == 5 && length $f[4];
		die "$file:$.: bad outcome '$f[3]' (pass or skip; fail is never expected)\n"
			unless $f[3] =~ /^(pass|skip)$/;
		push @rows, { test => glob_re($f[0]), variant => glob_re($f[1]), mode => glob_re($f[2]),
			      outcome => $f[3], why => $f[4], line => $. };
	}
	push @rows, @{load_declarations($suite)} if defined $suite;
	return \@rows;
}

# load_config($file) -> { CONFIG_X => value }: a variant's .config.
sub load_config {
	my ($file) = @_;
	die "no $file: the judge needs the variant's .config\n" unless -s $file;
	return parse_config(slurp($file));
}

# reason_needs("needs CONFIG_MEMCG (...)") -> { CONFIG_X | swap => 1 | 0 }
sub reason_needs {
	my ($why) = @_;
	my %need;
	$need{$1} = (defined $2 && $2 eq 'y') ? 0 : 1
		while $why =~ /\b(CONFIG_\w+)(?:=([ynm]))?/g;
	if (!%need) {
		$why =~ $_->[1] and $need{$_->[0]} = 1 for @NAMED;
	}
	$need{swap} = 1 if $why =~ /\bswap device\b/i;
	return \%need;
}

# The needs of %$need that this variant and mode do not meet, as words.
sub unmet {
	my ($need, $config, $mode) = @_;
	my @un;
	for my $k (sort keys %$need) {
		if ($k eq 'lru') {
			my $lru = mode_traits($mode)->{lru};
			push @un, "an LRU other than $need->{lru} in $mode" if $lru ne $need->{lru};
			next;
		}
		my $have = $k eq 'swap'
			? mode_traits($mode)->{swap} && ($config->{CONFIG_SWAP} // 'n') eq 'y'
			: ($config->{$k} // 'n') eq 'y';
		next if !$have == !$need->{$k};
		push @un, $k eq 'swap' ? ($need->{$k} ? "no swap device in $mode" : "a swap device in $mode")
			: $need->{$k} ? "$k=n" : "$k=y";
	}
	return @un;
}

# expect($known, $variant, $config, $test) -> (pass|skip, why): what $test
# (a VMAB::Record result: {test, mode, status, reason}) should have done.
sub expect {
	my ($known, $variant, $config, $t) = @_;
	for my $k (grep { $_->{outcome} } @$known) {
		return ($k->{outcome}, "matrix/known.tsv:$k->{line}: $k->{why}")
			if $t->{test} =~ $k->{test} && $variant =~ $k->{variant}
			&& $t->{mode} =~ $k->{mode};
	}
	my $skipped = ($t->{status} // '') eq 'skip';
	my $by_reason = $skipped ? reason_needs($t->{reason} // '') : {};
	if (my ($need, $where, $conflicts) = needs_of($known, $t->{test})) {
		return ('pass', "its declarations ($where) disagree: @$conflicts") if @$conflicts;
		# The reason checks the declaration: it names no other need.
		my @other = grep { !exists $need->{$_} || !$need->{$_} != !$by_reason->{$_} } sort keys %$by_reason;
		return ('pass', "it skipped for want of " . join(', ', map { wanted($_, $by_reason->{$_}) } @other)
			. ", which its declaration ($where) does not list") if @other;
		my @un = unmet($need, $config, $t->{mode});
		return ('skip', "it declares ($where) what this variant or mode lacks: @un") if @un;
		return ('pass', "its declared needs ($where) are all met here");
	}
	return ('pass', 'it declares no needs (VMAB_NEEDS) and did not skip') unless $skipped;
	return ('pass', 'it declares no needs (VMAB_NEEDS), and its skip reason names nothing this variant or mode lacks')
		unless %$by_reason;
	my @un = unmet($by_reason, $config, $t->{mode});
	return ('skip', join(', ', @un)) if @un;
	return ('pass', 'it skipped for want of ' . join(' ', map { wanted($_, $by_reason->{$_}) } sort keys %$by_reason)
		. ', which this variant and mode have');
}

# A need as words: "an active swap device", "CONFIG_X", "CONFIG_X off".
sub wanted {
	my ($k, $v) = @_;
	return $k eq 'swap' ? ($v ? 'an active swap device' : 'no swap device') : $v ? $k : "$k off";
}

# judge($known, $variant, $config, \@records, \@programs) -> list of problems,
# each { mode, id, want, got, what }, for a failure why => [lines] (the
# test's own words, its record's excerpt), else for an unexpected outcome
# why => [reason].  @records are VMAB::Record results, @programs
# VMAB::Tap::parse_results's programs ({mode, prog, planned, ran}).
# A test is missing when its program printed fewer results than it planned,
# or when it reported in another mode where its program also ran.
sub judge {
	my ($known, $variant, $config, $records, $programs) = @_;
	my (@bad, %seen, %id_prog);
	for my $x (@$records) {
		my $key = "$x->{mode}\0$x->{test}";
		push @bad, { mode => $x->{mode}, id => $x->{test}, want => '-', got => $x->{status},
			     what => 'reported twice' } if $seen{$key}++;
		$id_prog{$x->{test}} = prog_of($x->{test});
		my ($want, $why) = expect($known, $variant, $config, $x);
		next if $want eq $x->{status};
		push @bad, { mode => $x->{mode}, id => $x->{test}, want => $want, got => $x->{status},
			     what => $x->{status} eq 'fail' ? 'unexpected failure' : "unexpected $x->{status}",
			     why => $x->{status} eq 'fail' ? [@{$x->{excerpt} // []}] : [$why] };
	}
	for my $p (@$programs) {
		push @bad, { mode => $p->{mode}, id => "$p->{prog}/*", want => "$p->{planned} results",
			     got => $p->{ran}, what => 'missing test' }
			if $p->{planned} > $p->{ran};
		for my $id (sort grep { $id_prog{$_} eq $p->{prog} } keys %id_prog) {
			next if $seen{"$p->{mode}\0$id"}++;
			my $t = { test => $id, mode => $p->{mode} };
			push @bad, { mode => $p->{mode}, id => $id,
				     want => (expect($known, $variant, $config, $t))[0],
				     got => 'missing', what => 'missing test' };
		}
	}
	return (@bad, clock_problems({ programs => $programs }));
}

# clock_problems($parsed_results) -> one problem per benchmark run whose end
# line names a jiffies clocksource (suite/init.sh): its figures are timed
# in 4 ms steps (VMAB::Qemu gives the guest its TSC so that they are not).
sub clock_problems {
	my ($r) = @_;
	return map {
		{ mode => $_->{mode}, id => "$_->{prog}/*", want => 'a TSC clock',
		  got => $_->{clocksource}, what => 'benchmark timed by jiffies',
		  why => ["the guest's clocksource was $_->{clocksource} when $_->{prog} ended: " .
			  'CLOCK_MONOTONIC moved in 4 ms steps, its timings are not to be trusted'] }
	} grep { $_->{prog} =~ /^bench_/ && ($_->{clocksource} // '') =~ /jiffies/ }
		@{$r->{programs}};
}

# data_problems($parsed_results) -> one problem per "# @data" line that
# did not parse as one JSON object (VMAB::Tap's bad_data): a malformed or
# truncated line loses figures the report would show, so it is unexpected
# whatever the .config.
sub data_problems {
	my ($r) = @_;
	return map {
		{ mode => $_->{mode}, id => "$_->{prog}/*", want => 'a JSON object', got => 'malformed',
		  what => 'malformed @data line',
		  why => ["$_->{prog} printed a \"# \@data\" line that is not one JSON object (malformed or " .
			  'cut off), so its figures are lost: ' . (length $_->{line} > 200
				? substr($_->{line}, 0, 197) . '...' : $_->{line})] }
	} @{$r->{bad_data} // []};
}

1;
