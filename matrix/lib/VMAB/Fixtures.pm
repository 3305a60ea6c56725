package VMAB::Fixtures;
# Recording real console and results logs of broken boots, for the
# driver's host tests (matrix/t/fixtures; vmab boot --fixtures).  Each
# fixture boots a built kernel under TCG with an initramfs that fails on
# purpose:
#   panic     no /init: "No working init found" or a root fs panic
#   hang      /init says hello, then sleeps: the driver must time out
#   oom       a process is OOM-killed (the OOM report prints Call Trace:)
#   bootfail  a truncated bzImage: QEMU never gets a kernel running
#   flood     /init writes to the console without end
# The clean fixture is a real boot of the suite, not made here.
use strict;
use warnings;
use Exporter 'import';
use File::Copy qw(copy);
use File::Path qw(make_path);
use File::Temp qw(tempdir);
use VMAB::File qw(slurp spew);
use VMAB::Guest qw(write_initramfs);
use VMAB::Log qw(info);
use VMAB::Protocol qw(frame $CHANNEL);
use VMAB::Qemu qw(boot);

our @EXPORT_OK = qw(record_fixtures fixture_init @FIXTURES);

our @FIXTURES = qw(panic hang oom bootfail flood);

# How long each may run (seconds).
my %TIMEOUT = (panic => 60, hang => 20, oom => 120, bootfail => 20, flood => 15);

my $MODE = 'noswap-classic';
my $PRE = <<'EOS' . <<"EOS";
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t devtmpfs d /dev; mount -t sysfs s /sys
EOS
say() { echo "\$*" > $CHANNEL; }
say "@{[frame(hello => variant => 'fixture', kernel => '$(uname -r)', modes => $MODE)]}"
EOS

# fixture_init($name) -> the /init script of that fixture's image, or undef
# for none (panic, bootfail).
sub fixture_init {
	my ($name) = @_;
	return {
		hang => "$PRE" . <<"EOS",
say '@{[frame(begin => mode => $MODE, prog => 'base_test')]}'
sleep 1000
EOS
		oom => "$PRE" . <<"EOS" . <<'EOS' . <<"EOS",
say '@{[frame(begin => mode => $MODE, prog => 'hog')]}'
EOS
say 'TAP version 13'
say '1..1'
mkdir /tmp/cg; mount -t cgroup2 c /tmp/cg; echo +memory > /tmp/cg/cgroup.subtree_control
mkdir /tmp/cg/hog; echo 16M > /tmp/cg/hog/memory.max
sh -c 'echo $$ > /tmp/cg/hog/cgroup.procs; exec dd if=/dev/zero bs=64M count=1 of=/dev/null'
[ $? -eq 137 ] && say 'ok 1 hog_oom_killed' || say 'not ok 1 hog_oom_killed'
EOS
say '@{[frame(end => mode => $MODE, prog => 'hog', rc => 0, ms => 0)]}'
say '@{[frame('done')]}'
reboot -f
EOS
		flood => "$PRE" . <<'EOS',
while :; do echo 'flood flood flood flood flood flood flood flood' > /dev/console; done
EOS
	}->{$name};
}

# record_fixtures(kernel => bzImage, dir => where the logs go, names => [...],
#                 [busybox => path]) -> the names recorded.  NAME.console
# (its first 200000 bytes) and NAME.results (carriage returns removed).
sub record_fixtures {
	my (%o) = @_;
	my $work = tempdir('vmab-fixtures-XXXXXX', TMPDIR => 1, CLEANUP => 1);
	make_path($o{dir});
	for my $name (@{$o{names}}) {
		grep { $_ eq $name } @FIXTURES or die "no fixture '$name' (@FIXTURES)\n";
		my $root = "$work/$name";
		make_path(map { "$root/$_" } qw(bin proc sys dev tmp));
		copy($o{busybox} // '/bin/busybox', "$root/bin/busybox") or die "copy busybox: $!\n";
		chmod(0755, "$root/bin/busybox");
		if (defined(my $init = fixture_init($name))) {
			spew("$root/init", $init);
			chmod(0755, "$root/init");
		}
		write_initramfs($root, "$work/$name.gz");
		my $kernel = $o{kernel};
		if ($name eq 'bootfail') {
			$kernel = "$work/truncated.bzImage";
			spew($kernel, substr(slurp($o{kernel}), 0, 300000));
		}
		info("fixture $name: boot for at most $TIMEOUT{$name}s");
		boot(kernel => $kernel, initrd => "$work/$name.gz", accel => 'tcg', append => '',
		     timeout => $TIMEOUT{$name}, smp => 1, mem => 256,
		     console => "$work/$name.console", results => "$work/$name.results");
		spew("$o{dir}/$name.console", substr(slurp("$work/$name.console"), 0, 200000));
		spew("$o{dir}/$name.results", slurp("$work/$name.results") =~ s/\r//gr);
	}
	return @{$o{names}};
}

1;
