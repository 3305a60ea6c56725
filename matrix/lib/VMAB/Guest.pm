package VMAB::Guest;
# The guest's initramfs: busybox-static, /init (suite/init.sh), the in-guest
# programs built by suite/Makefile, and the host files of
# suite/host-files.txt (libjemalloc, stress-ng) with the shared libraries
# they and the dynamically linked programs need (their ldd closure, the
# dynamic loader included), each at its host path.  One image serves every
# variant: the variant's name and modes reach /init on the kernel command line.
use strict;
use warnings;
use Exporter 'import';
use File::Basename qw(dirname);
use File::Copy qw(copy);
use File::Path qw(make_path remove_tree);
use VMAB::Run qw(run_logged);

our @EXPORT_OK = qw(build_initramfs write_initramfs ldd_closure copy_host_files read_host_files);

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
	my @host = read_host_files($o{host_files} // "$top/suite/host-files.txt");
	my @dynamic = grep { -f && -x && !-l } glob("$root/suite/*");
	copy_host_files($root, ldd_closure(@host, @dynamic));
	return write_initramfs($root, "$out/initramfs.cpio.gz", $log);
}

# write_initramfs($root, $img, [$log]) -> $img: the folder $root as a
# gzipped newc cpio, the one writer of the guest's images (VMAB::Fixtures
# uses it too).  Byte for byte the same image from the same files (no
# dates, inode or device numbers, names in a fixed order), so that an
# unchanged guest is recognised (VMAB::Reuse).
sub write_initramfs {
	my ($root, $img, $log) = @_;
	my @cmd = ('sh', '-c',
		   "cd '$root' && find . -exec touch -h -d \@0 {} + && " .
		   "find . | LC_ALL=C sort | cpio -o -H newc --quiet --reproducible | " .
		   "gzip -1 -n > '$img.tmp'");
	if (defined $log) {
		run_logged($log, @cmd);
	} else {
		system(@cmd) == 0 or die "cpio of $root: $?\n";
	}
	rename("$img.tmp", $img) or die "rename $img: $!\n";
	return $img;
}

# read_host_files($file) -> the absolute paths it lists (first field of each
# line; # comments), each of which must exist on the host.
sub read_host_files {
	my ($file) = @_;
	return () unless -e $file;
	open(my $fh, '<', $file) or die "cannot read $file: $!\n";
	my @f;
	while (my $l = <$fh>) {
		next if $l =~ /^\s*(#|$)/;
		my ($p) = split ' ', $l;
		die "$file:$.: $p is not an absolute path\n" unless $p =~ m{^/};
		die "$file:$.: no $p on this machine (make deps installs it: tools/install-deps.sh)\n"
			unless -e $p;
		push @f, $p;
	}
	return @f;
}

# ldd_closure(@files) -> sorted unique host paths: the given files that are
# under a system folder (/usr, /lib, /lib64, /bin, /sbin: host files, not
# programs built under out/), plus every library and the dynamic loader that
# ldd names for each dynamically linked one (linux-vdso has no file).  A
# static program or a script adds nothing; a library ldd cannot find dies.
sub ldd_closure {
	my (@files) = @_;
	my %out;
	for my $f (@files) {
		$out{$f} = 1 if $f =~ m{^/(?:usr|lib|lib64|bin|sbin)/};
		open(my $fh, '-|', 'sh', '-c', 'ldd "$1" 2>/dev/null', 'ldd', $f)
			or die "cannot run ldd: $!\n";
		while (my $l = <$fh>) {
			if ($l =~ /=>\s*(\/\S+)\s+\(/ || $l =~ /^\s*(\/\S+)\s+\(/) {
				$out{$1} = 1;
			} elsif ($l =~ /=>\s*not found/) {
				die "ldd $f: $l";
			}
		}
		close $fh;	# ldd exits 1 for a static program or a script
	}
	return sort keys %out;
}

# copy_host_files($root, @paths): each host file's contents (a symbolic
# link followed) at the same path under $root, with its permission bits.
sub copy_host_files {
	my ($root, @paths) = @_;
	for my $p (@paths) {
		my $dst = "$root$p";
		make_path(dirname($dst));
		copy($p, $dst) or die "copy $p to $dst: $!\n";
		chmod((stat $p)[2] & 07777, $dst) or die "chmod $dst: $!\n";
	}
}

1;
