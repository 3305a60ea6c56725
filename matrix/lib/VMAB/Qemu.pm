package VMAB::Qemu;
# Booting a guest under QEMU and making sure no QEMU outlives the driver.
#
# -nodefaults -no-reboot with panic=-1: a panic or the end of /init (reboot -f)
# ends QEMU.  ttyS0 is the kernel console, ttyS1 the results channel.  Each
# QEMU runs in its own process group, killed on timeout, on console flood,
# on SIGINT/SIGTERM and when the driver exits for any reason.
use strict;
use warnings;
use Exporter 'import';
use POSIX qw(WNOHANG setpgid);
use Time::HiRes qw(time sleep);
use VMAB::File qw(slurp);
use VMAB::Log qw(info);

our @EXPORT_OK = qw(boot probe_accel qemu_version kill_all);

our $QEMU = 'qemu-system-x86_64';
our $FLOOD_BYTES = 64 << 20;	# a console this big is a runaway guest
our $GUEST_MEM_MIB = 2048;	# a guest's -m (VMAB::Scale counts it)
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

# boot(kernel, initrd, append, accel, timeout, console, results,
#      [swap_img], [mem], [smp]) -> { timed_out, flooded, status, seconds }
sub boot {
	my (%o) = @_;
	my @cmd = ($QEMU, '-nodefaults', '-no-reboot', '-display', 'none',
		'-accel', $o{accel}, '-cpu', $o{accel} eq 'kvm' ? 'host' : 'max',
		'-smp', $o{smp} // 2, '-m', $o{mem} // $GUEST_MEM_MIB,
		'-kernel', $o{kernel}, '-initrd', $o{initrd},
		'-append', "console=ttyS0 panic=-1 $o{append}",
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
		append => 'vmab_variant=probe vmab_modes=noswap-classic vmab_list=/dev/null',
		timeout => $o{timeout} // 20, smp => 1, mem => 256,
		console => "$o{dir}/kvm-probe.console", results => "$o{dir}/kvm-probe.results");
	my $ok = slurp("$o{dir}/kvm-probe.results") =~ /\@\@vmab done/;
	info(sprintf('accelerator probe: KVM %s after %.1fs',
		     $ok ? 'works' : $r->{timed_out} ? 'hung' : 'failed', $r->{seconds}));
	return $ok ? 'kvm' : 'tcg';
}

1;
