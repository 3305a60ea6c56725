# The names the host reads from the guest's output, checked against the
# suite's sources before any 50-minute run:
#   - every key of a "# @data" record that the report (VMAB::Report*)
#     reads is written by some program: a DK_* name of
#     suite/lib/data_keys.h, a key made from one of its DK_*_PREFIX, or a
#     key of suite/stressng.sh's record;
#   - every test of the expectations table (matrix/known.tsv) and every
#     declaration of what a test needs (VMAB_NEEDS, VMAB::Needs) names a
#     test the suite has, so that no exception outlives its test;
#   - every test the suite has is declared (the judge reads what a test
#     needs from its declaration alone), and no two declarations of one
#     test disagree;
#   - no program has two tests of one name (the judge keys results by
#     program/name).
# Test names come from the kselftest-harness programs as the compiler
# sees them (FIXTURE_VARIANT and macros that make TEST_F included), from
# the ksft_* results of the other programs (a literal name, or a format
# whose %s comes from a table of the program: an array of strings, the
# designs' names, run_name(); a %d is taken as 1, so its declarations
# glob it: "churn_vrange_*"), from suite/stressng.sh's stressors and from
# suite/selftests.list; every program of run.list, bench.list, zone.list and
# stress.list is one of them.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib "$FindBin::Bin/../lib";
use VMAB::Needs qw(load_declarations needs_of);

my $top = "$FindBin::Bin/../..";
my $suite = "$top/suite";
my $ksrc = "$top/out/src/linux";

sub slurp { my ($f) = @_; open(my $fh, '<', $f) or die "$f: $!\n"; local $/; return <$fh> }

# --- @data keys --------------------------------------------------------

my (%written, @prefixes);
for (split /\n/, slurp("$suite/lib/data_keys.h")) {
	next unless /^#define\s+(DK\w*)\s+"(\w+)"/;
	my ($macro, $name) = ($1, $2);
	if ($macro =~ /_PREFIX$/) { push @prefixes, $name } else { $written{$name} = 1 }
}
ok(keys %written > 100, 'data_keys.h lists the keys (' . scalar(keys %written) . ')');
my $stressng = slurp("$suite/stressng.sh");
$written{$1} = 1 while $stressng =~ /\\"(\w+)\\":/g;

# No program writes a key of its own around the header.
for my $c (glob("$suite/*.c"), glob("$suite/lib/*.c")) {
	next if $c =~ /lib_test\.c$/;
	my @lit = slurp($c) =~ /\bdata_(?:str|long|double|begin)\s*\(\s*[^,]+,\s*"(\w+)"/g;
	is_deeply(\@lit, [], "$c: data keys and kinds are DK_*/DKIND_* names");
}

# What the report reads: hash subscripts and hash keys in its code.
my %read;
for my $pm (glob("$top/matrix/lib/VMAB/Report.pm"), glob("$top/matrix/lib/VMAB/Report/*.pm")) {
	for (split /\n/, slurp($pm)) {
		next if /^\s*#/;
		$read{$1} = 1 while /\{\s*["']?([a-z]\w*)["']?\s*\}/g;
		$read{$1} = 1 while /\b([a-z]\w*)\s*=>/g;
	}
}
# Names the report uses that are not @data keys: its own structures, plot
# settings, matrix.json's fields besides the data, and values of data
# (scenario, design, op, pressure names) that it tables by.  A key the
# report starts to read must be written by the suite or be listed here,
# with what it is.
my %not_data = map { $_ => 1 } (
	# the report's and matrix.json's own structure
	qw(accelerator boot boot_reused d data fail generated got host_kernel id
	   kernel_release modes n name outcome phases problems qemu_version
	   question reason result since source source_version tests title
	   variant variants want what why results test clocksources),
	# Perl, not a key ("grep { defined } ...")
	qw(defined),
	# figures the report derives from data
	qw(absent accounting adjusted after after_adjusted after_hi after_lo b cg_absent cg_differs cg_equal control cost
	   differs equal garbage_pages hi lo loss met purging r ratio scan th
	   undetected_vrange_losses),
	# the analysis' structures (VMAB::Report::Goals) and the designs' table
	# (VMAB::Designs)
	qw(big by core droppable first_swapped first_taken flat growth mark_op marked
	   n_adjusted no_unmark ratios share shares swapped_kb t tag taken threshold unmark_op
	   vrange_vs_free within x marked_as measured_as kconfig letter promises detected_by taken_back_by sweeps
	   no_scenarios does_not_apply dropped kept still anon_kb anon_lru_kb file_lru_kb write first safety cache object_kb objects regenerated wrong
	   lazyfree lazyfree_kb nr_lazyfree marking mark_per_call mark_per_mib read_per_mib take_back take_back_per_mib),
	# host-bench.json's own fields (VMAB::HostBench) and the guests beside
	# the host (VMAB::Report::Goals::host_vs_guest)
	qw(cpu cores machine cells guest guest_max guest_min host rows),
	# matrix.json's provenance (VMAB::Provenance)
	qw(provenance run_id project_commit tree_commit patch_digest config_sha256 compiler recorded),
	# plot and page settings
	qw(aspect chromium figure height hline images key links logx logy
	   screenshot sw w width xlabel ylabel),
	# values of data fields the report groups by
	qw(both_designs dontneed fork_cow free getppid global_pressure image_cache
	   keep kernel lru madv_free_measured madv_pageout mark mlock_after_mark churn stressng discardable latency
	   mprotect mremap no_pressure nonvolatile nonvolatile_after_purge oom
	   nonvolatile_purged read_after_mark refault refault_purged swapless
	   unmark vma_flag volatile volatile_before_purge vrange_measured write_after_mark),
);
my @unwritten = grep {
	my $k = $_;
	!$written{$k} && !$not_data{$k} && !grep { index($k, $_) == 0 } @prefixes
} sort keys %read;
is_deeply(\@unwritten, [], 'every @data key the report reads is written by a program')
	or diag("read by the report, written by no program: @unwritten");

# --- test names ----------------------------------------------------------

{
	# The harness programs' names come from the preprocessor, which needs
	# the unpacked tree: a failure without it, never a skip.
	BAIL_OUT("no $ksrc/tools/testing/selftests/kselftest_harness.h: run make tree (make test-host does)")
		unless -f "$ksrc/tools/testing/selftests/kselftest_harness.h";
	my %ids;
	my @design_names = slurp("$suite/lib/designs.c") =~ /\.name = "(\w+)"/g;
	ok(@design_names >= 3, "the designs' names (@design_names)");
	for my $c (glob("$suite/*_test.c"), glob("$suite/bench_*.c")) {
		(my $prog = $c) =~ s{.*/(\w+)\.c$}{$1};
		my $src = slurp($c);
		my @names;
		if ($src =~ /kselftest_harness\.h/) {
			my $pp = `gcc -E -I$ksrc/tools/testing/selftests -I$suite/lib $c 2>&1`;
			is($?, 0, "$prog preprocesses") or next;
			my %variants;
			push @{$variants{$1}}, $2
				while $pp =~ /__register_fixture_variant\(&_(\w+?)_fixture_object, &_\1_(\w+)_object/g;
			while ($pp =~ /__test_metadata _\w+_object = \{ \.name = "(\w+)", [^}]*?\.fixture = &_(?:(\w+)_fixture_object|fixture_global)/g) {
				my ($t, $f) = ($1, $2);
				push @names, !defined $f ? $t
					: map { "$f.$_$t" } @{$variants{$f} // []} ? map({ "$_." } @{$variants{$f}}) : ('');
			}
		} else {
			# One test may be a result on one branch, a skip on another.
			my %one = map { $_ => 1 } ($src =~ /ksft_test_result\s*\([^;]*?"(\w+)\\n"/g),
				($src =~ /ksft_test_result_skip_named\s*\(\s*"(\w+)"/g);
			my @fmts = ($src =~ /snprintf\s*\(\s*name\s*,[^,]+,\s*("[^"]*"[^;]*?)\)\s*;/g,
				    $src =~ /ksft_test_result\s*\([^,;]+,\s*("[^"]*"[^;]*?)\)\s*;/g);
			my @checks;
			for my $call (@fmts) {
				my ($fmt, $args) = $call =~ /^"((?:[\w%]|\\n)*)"\s*(?:,\s*(.*))?$/s or next;
				$fmt =~ s/\\n$//;
				next if $fmt !~ /%/ || $fmt eq '%s';
				$one{$_} = 1 for expand($src, $fmt, $args, \@design_names);
				push @checks, [$fmt, $args];
			}
			# A format none expands, alone, must make a name another does.
			for (@checks) {
				my ($fmt, $args) = @$_;
				(my $re = $fmt) =~ s/%s/\\w*/g;
				$re =~ s/%[du]/\\d+/g;
				ok(scalar(grep { /^$re$/ } keys %one), "$prog: its test names of format \"$fmt\" are known")
					or diag("add the table its arguments ($args) come from to expand() in $0");
			}
			push @names, sort keys %one;
		}
		my %seen;
		my @dup = grep { $seen{$_}++ } @names;
		is_deeply(\@dup, [], "$prog: no two tests of one name");
		$ids{"$prog/$_"} = 1 for @names;
	}
	for (split /\n/, slurp("$suite/selftests.list")) {
		$ids{"vmselftest/$1"} = 1 if /^\s*(?:once\s+)?vmselftest\s+(\S+)/;
	}
	# stressng's stressors: the list it runs when given none.
	my ($stressors) = slurp("$suite/stressng.sh") =~ /^\[ \$# -gt 0 \] \|\| set -- ([\w ]+)$/m;
	ok($stressors, 'stressng.sh names its stressors');
	$ids{"stressng/$_"} = 1 for split ' ', $stressors // '';
	ok($ids{'vrange_test/vr.einval_bad_mode'} && $ids{'scenario_test/scn.vrange.no_pressure'}
	   && $ids{'fuzz_test/vrange_fuzz'} && $ids{'base_test/madv_dontneed_zeroes_pages'}
	   && $ids{'bench_churn/churn_vrange_own_vma_1t'} && $ids{'bench_oom/oom_none'}
	   && $ids{'bench_discardable/discardable_droppable'} && $ids{'bench_jemalloc/jemalloc_lazy_purge_memcg'}
	   && $ids{'stressng/ksm'}, 'test names found (' . scalar(keys %ids) . ')');
	# Every program the guest runs is one whose names are known here.
	my %progs = map { (split m{/})[0] => 1 } keys %ids;
	for my $list (qw(run.list bench.list stress.list zone.list)) {
		for (split /\n/, slurp("$suite/$list")) {
			next if /^\s*(#|$)/;
			my ($prog) = /^\s*(?:once\s+)?(\S+)/;
			ok($progs{$prog}, "$list: the test names of $prog are known");
		}
	}

	# Every exception of known.tsv is about a test that exists.
	for (split /\n/, slurp("$top/matrix/known.tsv")) {
		next if /^\s*(#|$)/;
		my ($glob) = split /\t/;
		(my $re = quotemeta $glob) =~ s/\\\*/.*/g;
		ok((grep { /^$re$/ } keys %ids), "known.tsv: $glob names a test the suite has");
	}
	my $decls = load_declarations($suite);
	for my $d (@$decls) {
		ok((grep { $_ =~ $d->{test} } keys %ids), "$d->{where}: $d->{glob} names a test the suite has");
	}
	# Every test declares what it needs, in declarations that agree.
	my (@undeclared, @conflicts);
	for my $id (sort keys %ids) {
		my (undef, undef, $c) = needs_of($decls, $id);
		if (!$c) { push @undeclared, $id } elsif (@$c) { push @conflicts, "$id: @$c" }
	}
	is_deeply(\@undeclared, [], 'every test declares what it needs (VMAB_NEEDS, needs=)')
		or diag("declare them beside the tests (suite/lib/needs.h): @undeclared");
	is_deeply(\@conflicts, [], 'no two declarations of a test disagree');
}

# expand($src, "churn_%s_%dt", "design_name[d], threads", \@designs): the
# names a format makes, each %s from where its argument comes from: an
# array of string literals of the program (design_name[d]), run_name()
# (its control's literal and the designs of run_design_id[]), a design's
# name (dsg->name), a ternary of two literals; %d and %u are 1.  () when
# an argument is none of these.
sub expand {
	my ($src, $fmt, $args, $designs) = @_;
	my @args = split /\s*,\s*/, $args // '';
	my @out = ('');
	for my $piece (split /(%[sdu])/, $fmt) {
		my @w;
		if ($piece eq '%d' || $piece eq '%u') {
			shift @args;
			@w = ('1');
		} elsif ($piece eq '%s') {
			my $a = shift(@args) // return ();
			my ($array) = $a =~ /^(\w+)\[/;
			my ($items) = defined $array ? $src =~ /\b\Q$array\E\s*\[\w*\]\s*=\s*\{([^}]*)\}/ : ();
			if (defined $items) {
				@w = $items =~ /"(\w*)"/g;
			} elsif ($a =~ /^run_name\(/) {
				my ($ids) = $src =~ /run_design_id\s*\[\w*\]\s*=\s*\{([^}]*)\}/ or return ();
				my ($ctl) = $src =~ /run_name\([^)]*\)\s*\{[^}]*\?\s*"(\w+)"/ or return ();
				my %by_id = (DESIGN_VRANGE => $designs->[0], DESIGN_MADV_FREE => $designs->[1],
					     DESIGN_DROPPABLE => $designs->[2]);
				@w = ($ctl, map { $by_id{$_} // return () } $ids =~ /\b(DESIGN_\w+)/g);
			} elsif ($a =~ /->name$|\]\.name$/) {
				@w = @$designs;
			} elsif ($a =~ /\?\s*"(\w*)"\s*:\s*"(\w*)"/) {
				@w = ($1, $2);
			} else {
				return ();
			}
		} else {
			@w = ($piece);
		}
		@out = map { my $o = $_; map { "$o$_" } @w } @out;
	}
	return @out;
}
done_testing();
