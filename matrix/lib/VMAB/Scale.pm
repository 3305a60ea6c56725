package VMAB::Scale;
# How much to run at once on this machine: make -j for the kernel builds
# (cores, plus the slots of a distcc farm when DISTCC_HOSTS names one) and
# how many guests boot at once (one per core, as far as memory holds a
# guest's -m and QEMU's own overhead).  The functions take the machine's size
# as arguments, so that a test can fake it; host_cores and host_mem_mib read
# the real one.
use strict;
use warnings;
use Exporter 'import';
use VMAB::File qw(slurp);
use VMAB::Run qw(capture);

our @EXPORT_OK = qw(compile_jobs boot_jobs distcc_slots host_cores host_mem_mib);

# What a guest costs beyond its -m: QEMU itself, TCG's translation cache, the
# serial logs.  A generous allowance, not a measurement.
our $GUEST_OVERHEAD_MIB = 512;
# What the host keeps for itself (the driver, page cache for the images).
our $HOST_RESERVE_MIB = 1024;
# distcc's own default when a host gives no /LIMIT.
our $DISTCC_DEFAULT_SLOTS = 4;

# distcc_slots($DISTCC_HOSTS) -> how many compiles the farm takes at once:
# the sum of each remote host's /LIMIT (distcc's default when absent).
# localhost runs on this machine's cores, already counted; --options and
# +zeroconf (whose size is unknown until asked) add nothing.
sub distcc_slots {
	my ($hosts) = @_;
	my $n = 0;
	for my $h (split ' ', $hosts // '') {
		next if $h =~ /^[-+]/;
		my ($name, $limit) = $h =~ m{^@?([^/,:]+)(?::[^/,]*)?(?:/(\d+))?};
		next if !defined $name || $name eq 'localhost';
		$n += $limit // $DISTCC_DEFAULT_SLOTS;
	}
	return $n;
}

# compile_jobs(cores, [distcc_hosts]) -> make -j: one more than the cores,
# so that a job waiting on the disk leaves no core idle, plus the farm's
# slots (the preprocessing stays here, the compiles go there).
sub compile_jobs {
	my ($cores, $distcc_hosts) = @_;
	$cores = 1 unless $cores && $cores > 0;
	return $cores + 1 + distcc_slots($distcc_hosts);
}

# boot_jobs(cores, mem_mib, guest_mib) -> guests at once: one per core (each
# guest's vCPUs share it under TCG), no more than memory holds, at least one.
sub boot_jobs {
	my ($cores, $mem_mib, $guest_mib) = @_;
	$cores = 1 unless $cores && $cores > 0;
	my $fit = int((($mem_mib // 0) - $HOST_RESERVE_MIB) / ($guest_mib + $GUEST_OVERHEAD_MIB));
	my $n = $cores < $fit ? $cores : $fit;
	return $n < 1 ? 1 : $n;
}

# The cores this process may run on (nproc honours affinity and cgroup
# cpusets), else those /proc/cpuinfo lists.
sub host_cores {
	my $n = eval { capture('nproc') } // '';
	return $1 if $n =~ /^(\d+)/ && $1 > 0;
	my $c = () = slurp('/proc/cpuinfo') =~ /^processor\s*:/mg;
	return $c || 1;
}

# Memory the guests can have, in MiB: MemAvailable (free plus what the page
# cache would give back), else MemTotal.
sub host_mem_mib {
	my ($file) = @_;
	my $m = slurp($file // '/proc/meminfo');
	my ($kib) = $m =~ /^MemAvailable:\s+(\d+)/m;
	($kib) = $m =~ /^MemTotal:\s+(\d+)/m unless defined $kib;
	return int(($kib // 0) / 1024);
}

1;
