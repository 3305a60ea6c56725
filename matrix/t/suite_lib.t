# suite/lib/: the in-guest programs' library, tested on the host
# (suite/lib/lib_test.c through `make -C suite lib-check`): sizes with
# K/M/G ("1G" is 1 GiB, not 1 byte), knobs put back to the value they had
# (not to "0"), the SIGBUS probe, the PRNG sequences, the @data line, no
# memory cgroup under make host-bench, the table of designs and the cookies
# of lib/designs.c.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use FindBin;

my $top = "$FindBin::Bin/../..";
my $ksrc = "$top/out/src/linux";
# make test-host unpacks the tree first: without it this is a failure,
# never a skip, so that CI cannot pass with the library untested.
BAIL_OUT("no $ksrc/tools/testing/selftests/kselftest_harness.h: run make tree (make test-host does)")
	unless -f "$ksrc/tools/testing/selftests/kselftest_harness.h";
my $out = tempdir(CLEANUP => 1);
my $tap = `make -s -C $top/suite KSRC=$ksrc OUT=$out lib-check 2>&1`;
is($?, 0, 'make lib-check builds and passes') or diag($tap);
my @ok = $tap =~ /^ok \d+ (\S+)$/mg;
my @not = $tap =~ /^not ok \d+ (\S+)/mg;
is_deeply(\@not, [], 'no library test fails');
for my $t (qw(global.parse_size_suffixes global.parse_size_refuses
	      knob.restores_the_old_value knob.restored_at_exit_of_the_setter_only
	      global.sigbus_probe_reports_addr_and_code global.prng_sequences
	      global.data_line_is_json global.mode_traits_from_the_environment global.no_memcg_under_host_bench
	      global.designs_table_is_whole global.cookies_count_lost_pages)) {
	ok((grep { $_ eq $t } @ok), "$t passes");
}

# THP's knobs are written through knob_set() alone (THP_ENABLED, THP_DIR in
# knob.h), so that every test puts them back.
for my $c (glob("$top/suite/*.c"), glob("$top/suite/lib/*.c")) {
	open(my $fh, '<', $c) or die "$c: $!\n";
	my @raw = grep { m{"/sys/kernel/mm/transparent_hugepage} } <$fh>;
	is_deeply(\@raw, [], "$c: no THP path outside knob.h");
}
done_testing();
