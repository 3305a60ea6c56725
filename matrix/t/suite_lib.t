# suite/lib/: the in-guest programs' library, tested on the host
# (suite/lib/lib_test.c through `make -C suite lib-check`): sizes with
# K/M/G ("1G" is 1 GiB, not 1 byte), knobs put back to the value they had
# (not to "0"), the SIGBUS probe, the PRNG sequences, the @data line, the
# table of designs and the cookies of lib/designs.c.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use FindBin;

my $top = "$FindBin::Bin/../..";
my $ksrc = "$top/out/src/linux";
plan skip_all => "no $ksrc/tools/testing/selftests/kselftest_harness.h (the unpacked tree)"
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
	      global.data_line_is_json global.designs_table_is_whole
	      global.cookies_count_lost_pages)) {
	ok((grep { $_ eq $t } @ok), "$t passes");
}
done_testing();
