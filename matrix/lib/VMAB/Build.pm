package VMAB::Build;
# Building a variant's bzImage in its own O= folder, with ccache, from the one
# patched tree, and copying it to out/V/bzImage.
use strict;
use warnings;
use Exporter 'import';
use File::Copy qw(copy);
use File::Path qw(make_path);
use VMAB::Run qw(run_logged);

our @EXPORT_OK = qw(build_kernel kernel_release);

sub build_kernel {
	my (%o) = @_;
	my ($tree, $build, $dest, $log, $jobs) = @o{qw(tree build dest log jobs)};
	# ccache: paths relative to the project, so another clone hits too.
	local $ENV{CCACHE_BASEDIR} = $o{top};
	local $ENV{CCACHE_NOHASHDIR} = 1;
	local $ENV{KBUILD_BUILD_TIMESTAMP} = 'vmab';	# stable, cache-friendly
	local $ENV{KBUILD_BUILD_USER} = 'vmab';
	local $ENV{KBUILD_BUILD_HOST} = 'vmab';
	run_logged($log, 'make', '-C', $tree, "O=$build", 'ARCH=x86_64',
		   'CC=ccache gcc', '-j' . ($jobs || 3), 'bzImage');
	make_path($dest);
	copy("$build/arch/x86/boot/bzImage", "$dest/bzImage")
		or die "copy bzImage: $!\n";
	return kernel_release($build);
}

sub kernel_release {
	my ($build) = @_;
	open(my $fh, '<', "$build/include/config/kernel.release") or return 'unknown';
	my $r = <$fh> // 'unknown';
	chomp $r;
	return $r;
}

1;
