# How many compile jobs and guests at once, for a faked machine size.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempfile);
use VMAB::Scale qw(compile_jobs boot_jobs distcc_slots host_cores host_mem_mib);

is(compile_jobs(2), 3, '2 cores: make -j3');
is(compile_jobs(16), 17, '16 cores: make -j17');
is(compile_jobs(0), 2, 'an unknown core count counts as one');
is(compile_jobs(2, ''), 3, 'an empty DISTCC_HOSTS adds nothing');

is(distcc_slots('farm1/8 farm2'), 12, "each host's /LIMIT, distcc's 4 when absent");
is(distcc_slots('localhost/2 127.0.0.1:3633/6,lzo @sshbox/3'), 9,
   'localhost runs here; ports, options and ssh hosts parsed');
is(distcc_slots('--randomize +zeroconf'), 0, 'options and zeroconf add nothing');
is(compile_jobs(2, 'farm1/8 farm2/8'), 19, '2 cores and a 16-slot farm: make -j19');

# 2048 MiB a guest + 512 for QEMU, 1024 kept for the host.
is(boot_jobs(2, 23 * 1024, 2048), 2, '2 cores, 23 GiB: one guest per core');
is(boot_jobs(16, 64 * 1024, 2048), 16, '16 cores, 64 GiB: 16');
is(boot_jobs(16, 8 * 1024, 2048), 2, '16 cores, 8 GiB: memory holds 2');
is(boot_jobs(4, 1024, 2048), 1, 'too little memory: still one');
is(boot_jobs(0, 0, 2048), 1, 'nothing known: one');

ok(host_cores() >= 1, 'this machine has a core');
my ($fh, $f) = tempfile(UNLINK => 1);
print $fh "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   8388608 kB\n";
close $fh;
is(host_mem_mib($f), 8192, 'MemAvailable, in MiB');
my ($fh2, $f2) = tempfile(UNLINK => 1);
print $fh2 "MemTotal:       4194304 kB\n";
close $fh2;
is(host_mem_mib($f2), 4096, 'MemTotal when MemAvailable is absent');
ok(host_mem_mib() > 0, "this machine's memory");
done_testing;
