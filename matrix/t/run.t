# Host commands: a failed, killed or disk-full build stops with a message
# that names the command, how it ended and the end of its log.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use VMAB::File qw(slurp);
use VMAB::Run qw(run_logged capture check_disk disk_wanted);

my $d = tempdir(CLEANUP => 1);
ok(run_logged("$d/ok.log", 'sh', '-c', 'echo fine'), 'a command that succeeds');
is(slurp("$d/ok.log"), "fine\n", '... its output is in the log');

ok(!eval { run_logged("$d/fail.log", 'sh', '-c', 'echo "cc1: error: x.c" >&2; exit 2'); 1 },
   'a command that fails dies');
like($@, qr/^command failed \(exit status 2\): sh -c/, '... naming the command and its status');
like($@, qr/log: \Q$d\E\/fail\.log\ncc1: error: x\.c/, '... with the log and its tail');

ok(!eval { run_logged("$d/kill.log", 'sh', '-c', 'echo building; kill -9 $$'); 1 },
   'a killed command dies');
like($@, qr/killed by signal 9/, '... saying it was killed');

ok(!eval { run_logged("$d/full.log", 'sh', '-c',
	'echo "fatal error: error writing to /tmp/cc.s: No space left on device" >&2; exit 1'); 1 },
   'a build that ran out of disk dies');
like($@, qr/No space left on device/, '... and the message says so');

ok(!eval { run_logged("$d/nolog/x.log", 'true'); 1 }, 'a log that cannot be written fails');
like($@, qr/^cannot write \Q$d\E\/nolog\/x\.log/, '... saying which');
ok(!eval { run_logged("$d/noexec.log", "$d/no-such-program"); 1 }, 'a program that cannot run fails');
like($@, qr/exit status 127.*cannot run \Q$d\E\/no-such-program/s, '... and the log says why');

is(disk_wanted(8), 10, 'disk_wanted: eight variants want 10 GiB (what README says)');
is(disk_wanted(1), 5, 'disk_wanted: one variant 5 GiB');
ok(check_disk($d, 0) > 0, 'check_disk: enough space returns the free kB');
ok(!eval { check_disk($d, 1 << 30); 1 }, 'check_disk: too little space dies');
like($@, qr/^not enough disk space in \Q$d\E: [\d.]+ GiB free, want 1073741824 GiB/, '... saying how much');
ok(!eval { check_disk("$d/missing", 1); 1 }, 'check_disk: a missing folder dies');

is(capture('echo', 'hi'), "hi\n", 'capture returns stdout');
done_testing;
