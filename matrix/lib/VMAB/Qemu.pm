package VMAB::Qemu;
# Booting a guest under QEMU and making sure no QEMU outlives the driver.
#
# -nodefaults -no-reboot with panic=-1: a panic or the end of /init (reboot -f)
# ends QEMU.  ttyS0 is the kernel console, ttyS1 the results channel.  Each
# QEMU runs in its own process group, killed on timeout, on console flood,
# on SIGINT/SIGTERM and when the driver exits for any reason.
#
# The guest's clock: tinyconfig has no HPET and no ACPI PM timer, so the
# guest can only calibrate its TSC against the emulated PIT, which under TCG
# often fails ("Unable to calibrate against PIT"); the kernel then marks the
# TSC unstable and keeps time with refined-jiffies, in 4 ms steps, and every
# program that times itself with CLOCK_MONOTONIC measures in those steps.
# Under QEMU the guest's TSC ticks at the host's TSC rate (TCG reads the
# host's counter), so the command line gives the guest that rate
# (tsc_early_khz=, no calibration) and tells it to trust the counter
# (tsc=reliable: no watchdog to mark it unstable later).  /init reports the
# clocksource it ran on (suite/init.sh), and the judge flags a benchmark
# timed by jiffies (VMAB::Expectations).
use strict;
use warnings;
use Exporter 'import';
use POSIX qw(WNOHANG setpgid);
use Time::HiRes qw(time sleep);
use VMAB::File qw(slurp);
use VMAB::Log qw(info);
use VMAB::Protocol qw(cmdline parse_frame);

our @EXPORT_OK = qw(boot probe_accel qemu_version kill_all $GUEST_CPUS
		    host_tsc_khz clock_args kernel_cmdline);

our $QEMU = 'qemu-system-x86_64';
our $FLOOD_BYTES = 64 << 20;	# a console this big is a runaway guest
our $GUEST_MEM_MIB = 2048;	# a guest's -m (VMAB::Scale counts it)
# A guest's CPUs.  QEMU 7.2's "-smp 2" is one socket of two cores, and the
# MP table its firmware writes names one CPU per socket: a kernel without
# ACPI (tinyconfig) then brings up one.  One core per socket gives the
# kernel every CPU; /init fails the boot if it sees fewer (vmab_cpus=).
our $GUEST_CPUS = 2;
my %live;			# pid => 1

sub kill_all {
	for my $pid (keys %live) {
		kill('KILL', -$pid);
		waitpid($pid, 0);
		delete $live{$pid};
	}
}

END { kill_all() }

sub qemu_version {
	my $v = `$QEMU --version 2>/dev/null` // '';
	return $v =~ /version (\S+)/ ? $1 : 'unknown';
}

# host_tsc_khz([dmesg text], [cpuinfo text]) -> the host's TSC rate in kHz,
# or undef.  $VMAB_TSC_KHZ overrides it (0: none, the guest calibrates).
# From the host kernel's log, best first: the refined calibration, the TSC
# rate when it differs from the processor's, the processor's; else from
# /proc/cpuinfo, only where the TSC rate is known and constant
# (tsc_known_freq, constant_tsc) and "cpu MHz" is not a current frequency
# (no aperfmperf).
sub host_tsc_khz {
	my ($dmesg, $cpuinfo) = @_;
	if (defined $ENV{VMAB_TSC_KHZ} && length $ENV{VMAB_TSC_KHZ}) {
		die "VMAB_TSC_KHZ must be a number of kHz\n" unless $ENV{VMAB_TSC_KHZ} =~ /^\d+$/;
		return $ENV{VMAB_TSC_KHZ} || undef;
	}
	$dmesg //= `dmesg 2>/dev/null` // '';
	for my $re (qr/tsc: Refined TSC clocksource calibration: (\d+)\.(\d{3}) MHz/,
		    qr/tsc: Detected (\d+)\.(\d{3}) MHz TSC/,
		    qr/tsc: Detected (\d+)\.(\d{3}) MHz processor/) {
		my @all = $dmesg =~ /$re/g;
		return $all[-2] * 1000 + $all[-1] if @all;
	}
	$cpuinfo //= slurp('/proc/cpuinfo');
	my ($flags) = $cpuinfo =~ /^flags\s*:(.*)$/m;
	my ($mhz) = $cpuinfo =~ /^cpu MHz\s*:\s*(\d+(?:\.\d+)?)/m;
	$flags = " " . ($flags // '') . " ";
	return int($mhz * 1000 + 0.5)
		if $mhz && $flags =~ / tsc_known_freq / && $flags =~ / constant_tsc /
		&& $flags !~ / aperfmperf /;
	return undef;
}

# clock_args([khz]) -> the kernel arguments that give the guest a real
# clock (see the top of this file); without a known rate, tsc=reliable
# alone, and the guest calibrates as before.
sub clock_args {
	my $khz = @_ ? $_[0] : host_tsc_khz();
	return 'tsc=reliable' . ($khz ? " tsc_early_khz=$khz" : '');
}

# kernel_cmdline(append) -> the whole command line the guest gets: the
# console, panic=-1, the clock, then the driver's own arguments.  The
# host's TSC rate is read once per driver run ($CLOCK, set by the tests).
our $CLOCK;
sub kernel_cmdline {
	my ($append) = @_;
	$CLOCK //= clock_args();
	return "console=ttyS0 panic=-1 $CLOCK" . (length($append // '') ? " $append" : '');
}

# -smp for n CPUs, each a socket of its own (see $GUEST_CPUS).
sub smp_arg {
	my ($n) = @_;
	return "$n,sockets=$n,cores=1,threads=1";
}

# boot(kernel, initrd, append, accel, timeout, console, results,
#      [swap_img], [mem], [smp]) -> { timed_out, flooded, status, seconds }
sub boot {
	my (%o) = @_;
	my @cmd = ($QEMU, '-nodefaults', '-no-reboot', '-display', 'none',
		'-accel', $o{accel}, '-cpu', $o{accel} eq 'kvm' ? 'host' : 'max',
		'-smp', smp_arg($o{smp} // $GUEST_CPUS), '-m', $o{mem} // $GUEST_MEM_MIB,
		'-kernel', $o{kernel}, '-initrd', $o{initrd},
		'-append', kernel_cmdline($o{append}),
		'-serial', "file:$o{console}", '-serial', "file:$o{results}");
	push @cmd, '-drive', "file=$o{swap_img},if=virtio,format=raw"
		if $o{swap_img};
	unlink $o{console}, $o{results};
	my $t0 = time;
	my $pid = fork // die "fork: $!\n";
	if (!$pid) {
		setpgid(0, 0);
		open(STDIN, '<', '/dev/null');
		open(STDOUT, '>', "$o{console}.qemu");
		open(STDERR, '>&', \*STDOUT);
		exec { $cmd[0] } @cmd or die "exec $QEMU: $!\n";
	}
	$live{$pid} = 1;
	my %r = (timed_out => 0, flooded => 0);
	while (1) {
		my $w = waitpid($pid, WNOHANG);
		if ($w == $pid) {
			$r{status} = $?;
			last;
		}
		my $why = time - $t0 > $o{timeout} ? 'timed_out'
			: (-s $o{console} // 0) > $FLOOD_BYTES ? 'flooded' : undef;
		if ($why) {
			$r{$why} = 1;
			kill('KILL', -$pid);
			waitpid($pid, 0);
			$r{status} = $?;
			last;
		}
		sleep(0.2);
	}
	delete $live{$pid};
	$r{seconds} = time - $t0;
	return \%r;
}

# probe_accel(kernel, initrd, dir) -> 'kvm' if a short KVM boot reaches the
# end of /init, else 'tcg'.  /dev/kvm existing is not enough: on some
# machines KVM guests hang silently, hence the timeout.
sub probe_accel {
	my (%o) = @_;
	return 'tcg' if $ENV{VMAB_ACCEL} && $ENV{VMAB_ACCEL} eq 'tcg';
	return 'tcg' unless -r '/dev/kvm' && -w '/dev/kvm';
	my $r = boot(kernel => $o{kernel}, initrd => $o{initrd}, accel => 'kvm',
		append => cmdline(variant => 'probe', modes => 'noswap-classic', list => '/dev/null'),
		timeout => $o{timeout} // 20, smp => 1, mem => 256,
		console => "$o{dir}/kvm-probe.console", results => "$o{dir}/kvm-probe.results");
	my $ok = grep { ((parse_frame($_))[0] // '') eq 'done' } split /\r?\n/, slurp("$o{dir}/kvm-probe.results");
	info(sprintf('accelerator probe: KVM %s after %.1fs',
		     $ok ? 'works' : $r->{timed_out} ? 'hung' : 'failed', $r->{seconds}));
	return $ok ? 'kvm' : 'tcg';
}

1;
