# The names the host reads from the guest's output, checked against the
# suite's sources before any 50-minute run:
#   - every key of a "# @data" record that the report (VMAB::Report*)
#     reads is written by some program: a DK_* name of
#     suite/lib/data_keys.h, a key made from one of its DK_*_PREFIX, or a
#     key of suite/stressng.sh's record;
#   - every test of the expectations table (matrix/known.tsv) and every
#     declaration of what a test needs (VMAB_NEEDS, VMAB::Needs) names a
#     test the suite has, so that no exception outlives its test;
#   - no program has two tests of one name (the judge keys results by
#     program/name).
# Test names come from the kselftest-harness programs as the compiler
# sees them (FIXTURE_VARIANT and macros that make TEST_F included), from
# the ksft_* results of the other programs, and from suite/selftests.list.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib "$FindBin::Bin/../lib";
use VMAB::Needs qw(load_declarations);

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
	   vrange_vs_free within x marked_as measured_as kconfig letter promises detected_by taken_back_by sweeps),
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
	for my $c (glob("$suite/*_test.c")) {
		(my $prog = $c) =~ s{.*/(\w+)\.c$}{$1};
		my $src = slurp($c);
		my @names;
		if ($src =~ /kselftest_harness\.h/) {
			my $pp = `gcc -E -I$ksrc/tools/testing/selftests -I$suite/lib $c 2>&1`;
			is($?, 0, "$prog preprocesses") or next;
			my %variants;
			push @{$variants{$1}}, $2
				while $pp =~ /__register_fixture_variant\(&_(\w+?)_fixture_object, &_\1_(\w+)_object/g;
			while ($pp =~ /__test_metadata _\w+_object = \{ \.name = "(\w+)", [^}]*?\.fixture = &_(\w+)_fixture_object/g) {
				my ($t, $f) = ($1, $2);
				push @names, $f eq 'global' ? $t
					: map { "$f.$_$t" } @{$variants{$f} // []} ? map({ "$_." } @{$variants{$f}}) : ('');
			}
		} else {
			# One test may be a result on one branch, a skip on another.
			my %one = map { $_ => 1 } ($src =~ /ksft_test_result\s*\([^;]*?"(\w+)\\n"/g),
				($src =~ /ksft_test_result_skip_named\s*\(\s*"(\w+)"/g);
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
	ok($ids{'vrange_test/vr.einval_bad_mode'} && $ids{'scenario_test/scn.vrange.no_pressure'}
	   && $ids{'fuzz_test/vrange_fuzz'}, 'test names found (' . scalar(keys %ids) . ')');

	# Every exception of known.tsv is about a test that exists.
	for (split /\n/, slurp("$top/matrix/known.tsv")) {
		next if /^\s*(#|$)/;
		my ($glob) = split /\t/;
		(my $re = quotemeta $glob) =~ s/\\\*/.*/g;
		ok((grep { /^$re$/ } keys %ids), "known.tsv: $glob names a test the suite has");
	}
	for my $d (@{load_declarations($suite)}) {
		ok((grep { $_ =~ $d->{test} } keys %ids), "$d->{where}: $d->{glob} names a test the suite has");
	}
}
done_testing();
