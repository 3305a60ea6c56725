package VMAB::Reuse;
# Reusing a clean boot's logs when nothing the guest sees has changed, as a
# build system reuses a test result whose inputs are unchanged (bazel's
# "(cached) PASSED").  The key is a SHA-256 over the kernel image, the
# initramfs, the whole kernel command line (with the clock arguments, which
# follow the host's TSC rate: VMAB::Qemu::kernel_cmdline), the accelerator
# and the QEMU version.
# Only a boot that ended PASS with no unexpected result is kept; the logs are
# classified and judged again on every run, so a changed matrix/known.tsv,
# .config or driver still applies.  matrix/vmab --rerun (make RERUN=1) boots again.
use strict;
use warnings;
use Exporter 'import';
use Digest::SHA;
use VMAB::File qw(slurp spew);
use VMAB::Qemu qw(kernel_cmdline);

our @EXPORT_OK = qw(boot_key reusable_boot remember_boot forget_boot);

# boot_key(kernel => f, initrd => f, append => s, accel => s, qemu => s)
sub boot_key {
	my (%o) = @_;
	my $sha = Digest::SHA->new(256);
	for my $f (@o{qw(kernel initrd)}) {
		-f $f or die "no $f\n";
		$sha->addfile($f, 'b');
	}
	$sha->add(join("\0", '', kernel_cmdline($o{append}), @o{qw(accel qemu)}));
	return $sha->hexdigest;
}

# The key file: "KEY SECONDS" of the last clean boot in this log folder.
sub key_file { "$_[0]/boot.key" }

# reusable_boot($logdir, $key) -> the seconds the kept boot took, or undef
sub reusable_boot {
	my ($dir, $key) = @_;
	my ($k, $secs) = split ' ', slurp(key_file($dir));
	return undef unless defined $secs && $k eq $key;
	return undef unless -s "$dir/console.log" && -s "$dir/results.log";
	return $secs;
}

sub remember_boot {
	my ($dir, $key, $secs) = @_;
	spew(key_file($dir), "$key $secs\n");
}

sub forget_boot { unlink key_file($_[0]) }

1;
