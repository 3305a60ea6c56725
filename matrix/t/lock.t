# VMAB::Lock: a second driver on the same out/ is refused, naming the first.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use POSIX ();
use VMAB::Lock qw(lock_out);

my $dir = tempdir(CLEANUP => 1);
my $fh = lock_out("$dir/out");
ok($fh, 'the first run gets the folder (made if missing)');
is(do { open(my $r, '<', "$dir/out/vmab.lock") or die; scalar <$r> }, "$$\n",
   'the lock file names its holder');

# A second open of the file is a second lock, as another process's would be.
eval { lock_out("$dir/out") };
like($@, qr/^\Q$dir\E\/out is in use by another run of the driver \(pid $$\): wait for it to end, or give this one its own --out$/,
     'a second run is refused with the first one\'s pid');

# From another process too.
my $pid = fork // die;
if (!$pid) {
	my $holder = getppid();
	POSIX::_exit(!eval { lock_out("$dir/out"); 1 } && $@ =~ /\(pid $holder\)/ ? 0 : 1);
}
waitpid($pid, 0);
is($?, 0, 'another process is refused too');

# A program that the driver starts (make, QEMU) does not keep the lock:
# it is close-on-exec, so once the driver is gone the next run may start
# even while such a program lingers.
my $child = fork // die;
if (!$child) {
	exec('sleep', '30') or POSIX::_exit(127);
}
# Until the exec, the forked child shares the lock (as a fork does).
for (1 .. 100) {
	my $cmd = '';
	if (open(my $c, '<', "/proc/$child/cmdline")) {
		$cmd = <$c> // '';
	}
	last if $cmd =~ /^sleep/;
	select(undef, undef, undef, 0.05);
}
close($fh);
my $again = eval { lock_out("$dir/out") };
ok($again, 'once the first run has ended, the next one gets it, though its child still runs') or diag($@);
kill('TERM', $child);
waitpid($child, 0);

done_testing();
