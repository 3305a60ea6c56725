# The boot loop: a guest that hangs is killed at its timeout, a flooding one
# when its console grows too big, and no QEMU process is left behind.  A
# stand-in script plays QEMU so the test needs no kernel.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use VMAB::Qemu qw(boot host_tsc_khz clock_args kernel_cmdline);

my $dir = tempdir(CLEANUP => 1);
sub fake {
	my ($name, $body) = @_;
	open(my $fh, '>', "$dir/$name") or die;
	print $fh "#!/bin/sh\n$body\n";
	close $fh;
	chmod 0755, "$dir/$name";
	return "$dir/$name";
}
# Alive: exists and is not a zombie waiting for its new parent to reap it.
sub alive {
	my ($pid) = @_;
	for (1 .. 20) {
		open(my $fh, '<', "/proc/$pid/stat") or return 0;
		my $stat = <$fh> // '';
		return 0 if $stat =~ /^\d+ \(.*\) Z/;
		select(undef, undef, undef, 0.1);
	}
	return 1;
}

# Arguments as the real driver passes them; the fake writes its pid first.
my %args = (kernel => 'k', initrd => 'i', append => '', accel => 'tcg',
	    console => "$dir/console", results => "$dir/results");

$VMAB::Qemu::QEMU = fake('hang', "echo \$\$ > $dir/pid; sleep 1000 & echo \$! > $dir/child; wait");
my $r = boot(%args, timeout => 1);
ok($r->{timed_out}, 'hang: timed out');
ok($r->{seconds} < 5, 'hang: killed promptly');
chomp(my $pid = `cat $dir/pid`);
ok(!alive($pid), 'hang: the QEMU stand-in is gone');
chomp(my $child = `cat $dir/child`);
ok($child && !alive($child), 'hang: its children too');

$VMAB::Qemu::FLOOD_BYTES = 1 << 20;
my $flood = fake('flood', 'while :; do for f in "$@"; do case $f in file:*console) ' .
		 'yes floodfloodflood | head -c 5000000 >> "${f#file:}";; esac; done; done');
$VMAB::Qemu::QEMU = $flood;
$r = boot(%args, timeout => 30);
ok($r->{flooded}, 'flood: stopped as a flood');
ok(!$r->{timed_out}, 'flood: before the timeout');

$VMAB::Qemu::QEMU = fake('quick', "echo hi; exit 3");
$r = boot(%args, timeout => 10);
ok(!$r->{timed_out} && !$r->{flooded}, 'exit: neither timeout nor flood');
is($r->{status} >> 8, 3, 'exit: status kept');

# The guest's clock: the host's TSC rate from its kernel log, best line first.
{
	local $ENV{VMAB_TSC_KHZ};
	my $log = "[    0.000255] tsc: Detected 2694.867 MHz processor\n" .
		  "[    0.000300] tsc: Detected 2400.000 MHz TSC\n" .
		  "[    1.100000] tsc: Refined TSC clocksource calibration: 2399.998 MHz\n";
	is(host_tsc_khz($log, ''), 2399998, 'the refined calibration first');
	is(host_tsc_khz(join("\n", (split /\n/, $log)[0, 1]), ''), 2400000,
	   'then the TSC rate where it differs from the processor\'s');
	is(host_tsc_khz("tsc: Detected 2694.867 MHz processor\n", ''), 2694867,
	   'then the processor\'s');
	my $cpu = "cpu MHz\t\t: 2694.867\nflags\t\t: fpu tsc constant_tsc nonstop_tsc tsc_known_freq pni\n";
	is(host_tsc_khz('', $cpu), 2694867, 'no log: /proc/cpuinfo where the TSC rate is known');
	is(host_tsc_khz('', $cpu =~ s/ tsc_known_freq//r), undef, '... not where it is not');
	is(host_tsc_khz('', $cpu =~ s/ pni/ aperfmperf pni/r), undef,
	   '... nor where "cpu MHz" is a current frequency (aperfmperf)');
	$ENV{VMAB_TSC_KHZ} = 1000000;
	is(host_tsc_khz($log, $cpu), 1000000, 'VMAB_TSC_KHZ overrides');
	$ENV{VMAB_TSC_KHZ} = 0;
	is(host_tsc_khz($log, $cpu), undef, 'VMAB_TSC_KHZ=0: none');
	$ENV{VMAB_TSC_KHZ} = '2.4GHz';
	ok(!eval { host_tsc_khz($log, $cpu); 1 }, 'VMAB_TSC_KHZ must be kHz');
}
is(clock_args(2399998), 'tsc=reliable tsc_early_khz=2399998', 'clock arguments with a rate');
is(clock_args(undef), 'tsc=reliable', '... and without one: the guest calibrates');

# boot() gives QEMU that command line.
{
	local $VMAB::Qemu::CLOCK = 'tsc=reliable tsc_early_khz=2399998';
	is(kernel_cmdline('vmab_variant=both'),
	   'console=ttyS0 panic=-1 tsc=reliable tsc_early_khz=2399998 vmab_variant=both',
	   'the command line: console, panic, clock, then the driver\'s');
	$VMAB::Qemu::QEMU = fake('args', "for a in \"\$@\"; do echo \"\$a\"; done > $dir/args");
	boot(%args, append => 'vmab_variant=both', timeout => 10);
	my @argv = split /\n/, `cat $dir/args`;
	my ($i) = grep { $argv[$_] eq '-append' } 0 .. $#argv;
	is($argv[$i + 1], kernel_cmdline('vmab_variant=both'), 'QEMU gets it after -append');
}
done_testing;
