# suite/Makefile: a program or list whose source is gone leaves the
# folder that becomes the initramfs; the others stay.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use FindBin;

my $suite = "$FindBin::Bin/../../suite";
my $out = tempdir(CLEANUP => 1);
my @kept = qw(vrange_test bench_mark run.list);
my @gone = qw(renamed_test bench_removed old.list);
-f "$suite/vrange_test.c" && -f "$suite/bench_mark.c" && -f "$suite/run.list"
	or BAIL_OUT('suite/ no longer has the sources this test keeps');
for (@kept, @gone) {
	open(my $fh, '>', "$out/$_") or die "$out/$_: $!";
}
is(system('make', '-s', '-C', $suite, "OUT=$out", 'prune'), 0, 'make prune runs');
ok(!-e "$out/$_", "$_ (no source) removed") for @gone;
ok(-e "$out/$_", "$_ (source in suite/) kept") for @kept;
done_testing();
