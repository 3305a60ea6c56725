package VMAB::Judge;
# Judging a boot's results against what the variant's .config implies
# (SPEC 7): a test passes unless it needs something the variant or the mode
# lacks, and then it skips, saying what.  What a test needs is read from
#   - its id (program/name): naming a design (vrange or sigbus; madv_free,
#     madvfree or lazyfree; droppable) or an optional feature (thp,
#     khugepaged, transhuge; ksm; memcg; lru_gen) means it needs that
#     option; "absent" in the name means it needs the option off;
#     "both_designs" needs designs A and B;
#   - the reason it skipped: every CONFIG_X it names ("needs CONFIG_X",
#     "CONFIG_X=n": X on; "CONFIG_X=y": X off), else an option it names as
#     a name would, except one the name already settles;
#     "swap device": an active swap device (CONFIG_SWAP=y and a swap-* mode).
# A skip is expected when some need is unmet, a pass when all are met; so a
# skip whose reason names an option the .config has, or a pass of a test
# whose name needs an option the .config lacks, is unexpected.
# matrix/known.tsv lists the exceptions, each with its reason (load_known).
# A benchmark (a bench_* program) that ended on a jiffies clocksource timed
# itself in 4 ms steps: that is unexpected too (clock_problems).
use strict;
use warnings;
use Exporter 'import';
use VMAB::File qw(slurp);
use VMAB::Kconfig qw(parse_config);
use VMAB::Record qw(prog_of);
use VMAB::Variants qw(mode_traits);

our @EXPORT_OK = qw(load_known load_config expect judge);

# The options a test's id or skip reason may name, and how it names them
# (a SIGBUS on a purged page is design A's alone).
my @NAMED = (
	[CONFIG_VRANGE => qr/(?<![a-z])(?:vrange|sigbus)/i],
	[CONFIG_MADV_FREE => qr/(?<![a-z])(?:madv_?free|lazyfree)/i],
	[CONFIG_MAP_DROPPABLE => qr/(?<![a-z])droppable/i],
	[CONFIG_TRANSPARENT_HUGEPAGE => qr/(?<![a-z])(?:thp|khugepaged|transhuge)/i],
	[CONFIG_KSM => qr/(?<![a-z])ksm/i],
	[CONFIG_MEMCG => qr/(?<![a-z])memcg/i],
	[CONFIG_LRU_GEN => qr/(?<![a-z])lru_gen/i],
);
# Designs A and B (a scenario "both_designs" needs both; the name predates
# design C, which a test names as "droppable").
my @DESIGNS = @NAMED[0, 1];

# load_known($file) -> [{test, variant, mode (globs as regexes), outcome, why, line}]
# One exception a line, five tab-separated fields:
#   test glob <TAB> variant glob <TAB> mode glob <TAB> pass|skip <TAB> why
sub load_known {
	my ($file) = @_;
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
	return \@rows;
}

sub glob_re {
	my ($g) = @_;
	(my $re = quotemeta $g) =~ s/\\\*/.*/g;
	return qr/^$re$/;
}

# load_config($file) -> { CONFIG_X => value }: a variant's .config.
sub load_config {
	my ($file) = @_;
	die "no $file: the judge needs the variant's .config\n" unless -s $file;
	return parse_config(slurp($file));
}

# name_needs("prog/name") -> { CONFIG_X => 1 (on) | 0 (off) }
sub name_needs {
	my ($id) = @_;
	my %need;
	for my $d (@NAMED) {
		$need{$d->[0]} = $id =~ /absent/ ? 0 : 1 if $id =~ $d->[1];
	}
	$need{$_->[0]} = 1 for $id =~ /both_designs/ ? @DESIGNS : ();
	return \%need;
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
		my $have = $k eq 'swap'
			? mode_traits($mode)->{swap} && ($config->{CONFIG_SWAP} // 'n') eq 'y'
			: ($config->{$k} // 'n') eq 'y';
		next if !$have == !$need->{$k};
		push @un, $k eq 'swap' ? "no swap device in $mode"
			: $need->{$k} ? "$k=n" : "$k=y";
	}
	return @un;
}

# expect($known, $variant, $config, $test) -> (pass|skip, why): what $test
# (a VMAB::Record result: {test, mode, status, reason}) should have done.  A skip's own reason counts:
# it is expected when what it names is missing here.
sub expect {
	my ($known, $variant, $config, $t) = @_;
	for my $k (@$known) {
		return ($k->{outcome}, "matrix/known.tsv:$k->{line}: $k->{why}")
			if $t->{test} =~ $k->{test} && $variant =~ $k->{variant}
			&& $t->{mode} =~ $k->{mode};
	}
	my $by_name = name_needs($t->{test});
	my @un = unmet($by_name, $config, $t->{mode});
	return ('skip', "its name needs what this variant or mode lacks: @un") if @un;
	return ('pass', '') unless ($t->{status} // '') eq 'skip';
	# What the name settles (and this kernel has), the reason cannot undo.
	my $need = reason_needs($t->{reason} // '');
	delete @$need{keys %$by_name};
	return ('pass', 'its skip reason names nothing this variant or mode lacks') unless %$need;
	@un = unmet($need, $config, $t->{mode});
	return ('skip', join(', ', @un)) if @un;
	my @named = map { $_ eq 'swap' ? 'an active swap device'
			  : $need->{$_} ? $_ : "$_ off" } sort keys %$need;
	return ('pass', "it skipped for want of @named, which this variant and mode have");
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

1;
