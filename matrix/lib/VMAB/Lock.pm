package VMAB::Lock;
# One driver at a time per output folder.  Two drivers on one out/ would
# build into the same O= folders and write the same initramfs, swap
# images and results at once; the second one is refused, with the first
# one's pid, instead.
use strict;
use warnings;
use Exporter 'import';
use Fcntl qw(:flock O_RDWR O_CREAT);
use File::Path qw(make_path);

our @EXPORT_OK = qw(lock_out);

# lock_out($dir): holds $dir/vmab.lock until the returned handle is
# closed or the process ends (Perl opens it close-on-exec: the builds and
# QEMU it starts do not keep it).  Dies if another process holds it.
sub lock_out {
	my ($dir) = @_;
	make_path($dir);
	my $file = "$dir/vmab.lock";
	sysopen(my $fh, $file, O_RDWR | O_CREAT, 0644) or die "cannot open $file: $!\n";
	if (!flock($fh, LOCK_EX | LOCK_NB)) {
		my $who = <$fh> // '';
		chomp $who;
		$who = $who =~ /^\d+$/ ? "pid $who" : 'another process';
		die "$dir is in use by another run of the driver ($who): " .
		    "wait for it to end, or give this one its own --out\n";
	}
	truncate($fh, 0);
	syswrite($fh, "$$\n");
	return $fh;
}

1;
