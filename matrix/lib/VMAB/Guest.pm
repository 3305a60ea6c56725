package VMAB::Guest;
# The guest's initramfs: busybox-static, /init (suite/init.sh) and the static
# in-guest programs built by suite/Makefile.  One image serves every variant:
# the variant's name and modes reach /init on the kernel command line.
use strict;
use warnings;
use Exporter 'import';
use File::Copy qw(copy);
use File::Path qw(make_path remove_tree);
use VMAB::Run qw(run_logged);

our @EXPORT_OK = qw(build_initramfs);

sub build_initramfs {
	my (%o) = @_;
	my ($top, $tree, $out, $log) = @o{qw(top tree out log)};
	my $progs = "$out/suite";
	make_path($progs);
	run_logged($log, 'make', '-C', "$top/suite", "KSRC=$tree", "OUT=$progs",
		   @{$o{suite_targets} // []});
	my $root = "$out/root";
	remove_tree($root);
	make_path(map { "$root/$_" } qw(bin proc sys dev tmp suite));
	my $busybox = $o{busybox} // '/bin/busybox';
	copy($busybox, "$root/bin/busybox") or die "copy $busybox: $!\n";
	chmod(0755, "$root/bin/busybox");
	run_logged($log, 'cp', '-a', "$progs/.", "$root/suite/");
	rename("$root/suite/init", "$root/init") or die "no init in $progs\n";
	my $img = "$out/initramfs.cpio.gz";
	# Byte for byte the same image from the same files (no dates, inode
	# or device numbers, names in a fixed order), so that an unchanged
	# guest is recognised (VMAB::Reuse).
	run_logged($log, 'sh', '-c',
		   "cd '$root' && find . -exec touch -h -d \@0 {} + && " .
		   "find . | LC_ALL=C sort | cpio -o -H newc --quiet --reproducible | " .
		   "gzip -1 -n > '$img.tmp'");
	rename("$img.tmp", $img) or die "rename $img: $!\n";
	return $img;
}

1;
