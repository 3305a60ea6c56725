package VMAB::Kbuild;
# Building a variant's bzImage in its own O= folder, with ccache, from the one
# patched tree, and copying it to out/V/bzImage.
#
# Chained object trees: variants are built in the order of matrix/variants.conf,
# whose rows go by configuration distance, and a variant's O= folder that does
# not exist yet (or was built from other sources) starts as a copy (cp -a,
# never hard links: make writes objects in place) of the nearest earlier
# variant's folder built from the current sources.  Kbuild then rebuilds only
# what the configuration change reaches: fixdep records in each object's .cmd
# file the CONFIG_ symbols its sources use (include/config/*, touched by
# syncconfig for the symbols that changed), and each .cmd file holds the
# command line, so that a changed flag (KASAN's) rebuilds everything it
# reaches.  The copy's vmlinux and bzImage are relinked because their inputs
# are newer.  The folder's paths are relative to itself or name the source tree
# (the same for every variant), and its Makefile is written again by each make;
# objtool's are absolute, see keep_objtool.
use strict;
use warnings;
use Exporter 'import';
use File::Copy qw(copy);
use File::Find ();
use File::Path qw(make_path remove_tree);
use File::Spec;
use Time::HiRes ();
use VMAB::File qw(slurp spew);
use VMAB::Run qw(run_logged);

our @EXPORT_OK = qw(build_kernel kernel_release chain_plan chain_build_dir built_from_tree
		    objects_depending_on few_objects_to_rebuild);

# In a build folder: which tree commit its last successful build was of.
our $BUILT_STAMP = '.vmab-built';

# built_from_tree($build) -> the tree commit of its last successful build, or
# undef (never built, or its last build failed or was interrupted).
sub built_from_tree {
	my ($build) = @_;
	my ($c) = slurp("$build/$BUILT_STAMP") =~ /^tree (\S+)$/m;
	return $c;
}

# chain_plan(order, name, tree, built, present, in_place) -> ('keep') or
# ('copy', $from) or ('empty'): where variant $name's build starts.
#   order:    every variant name, in build order (variants.conf)
#   tree:     the commit the tree is at now
#   built:    { name => tree commit of its last good build }
#   present:  { name => 1 } for the build folders that exist
#   in_place: few of $name's objects depend on the sources changed since its
#             last good build (few_objects_to_rebuild: Kbuild rebuilds just
#             those in place, where a copy would rebuild what the
#             configurations differ in)
# A folder built from the current tree, or one that only needs a few objects
# compiled again, is kept.  Otherwise (a header that many objects include, a
# Makefile, a Kconfig) the nearest earlier variant built from the current
# tree is copied: the change would rebuild as much here as there, and there
# it is done already.  Failing
# that, a missing folder starts from the nearest earlier one built at all
# (Kbuild brings it up to date by mtime), else empty.
sub chain_plan {
	my (%o) = @_;
	my ($name, $tree, $built, $present) = @o{qw(name tree built present)};
	my ($i) = grep { $o{order}[$_] eq $name } 0 .. $#{$o{order}};
	my @before = defined $i ? reverse @{$o{order}}[0 .. $i - 1] : ();
	if ($present->{$name}) {
		my $mine = $built->{$name};
		return ('keep') if defined $mine && ($mine eq $tree || $o{in_place});
	}
	my ($current) = grep { $present->{$_} && ($built->{$_} // '') eq $tree } @before;
	return ('copy', $current) if defined $current;
	return ('keep') if $present->{$name};
	my ($any) = grep { $present->{$_} && defined $built->{$_} } @before;
	return defined $any ? ('copy', $any) : ('empty');
}

# The share of a folder's objects that may depend on changed sources and
# still be rebuilt in place rather than copied from a current neighbour.
# After a change to mm/vrange.c and include/linux/vrange.h, 7 of 833
# objects depend on them; a copy from the neighbour rebuilds what the two
# configurations differ in (816 of 874 objects for debug from swapless).
our $FEW_OBJECTS = 0.10;

# objects_depending_on($build, $tree, \@changed) -> (n, total): how many of
# the objects in $build name one of the changed files (paths in $tree) in
# their .cmd file (the source on its source_ line, every header fixdep found
# on its deps_ lines), out of how many objects have a .cmd file.  Kbuild
# writes those paths relative to $build or absolute.
sub objects_depending_on {
	my ($build, $tree, $changed) = @_;
	my @prefix = grep { length } (File::Spec->abs2rel($tree, $build), File::Spec->rel2abs($tree));
	my $alt = join '|', map { quotemeta } @prefix;
	my $files = join '|', map { quotemeta } @$changed;
	my $re = @$changed ? qr{(?:^|[\s=])(?:$alt)/(?:$files)(?:\s|$)}m : undef;
	my ($n, $total) = (0, 0);
	File::Find::find({ no_chdir => 1, wanted => sub {
		return unless m{/\.[^/]+\.o\.cmd\z} && -f $_;
		$total++;
		$n++ if $re && slurp($_) =~ $re;
	} }, $build);
	return ($n, $total);
}

# few_objects_to_rebuild($build, $tree, \@changed) -> true if the changed
# files are sources Kbuild tracks per object (.c, .S, .h) and at most
# $FEW_OBJECTS of the folder's objects depend on them.  Any other file (a
# Makefile, a Kconfig, a script) may change what every object is: false.
sub few_objects_to_rebuild {
	my ($build, $tree, $changed) = @_;
	return 0 unless $changed && !grep { !/\.[cSh]\z/ } @$changed;
	my ($n, $total) = objects_depending_on($build, $tree, $changed);
	return $total > 0 && $n <= $FEW_OBJECTS * $total;
}

# chain_build_dir($from, $build, $log): $build becomes a copy of $from.  The
# copy goes to a temporary folder first, so that an interrupted copy never
# leaves a half folder that looks like a build.
sub chain_build_dir {
	my ($from, $build, $log) = @_;
	my $tmp = "$build.chain-tmp";
	remove_tree($tmp);
	run_logged($log, 'cp', '-a', '--', $from, $tmp);
	unlink "$tmp/$BUILT_STAMP";
	remove_tree($build);
	rename($tmp, $build) or die "rename $tmp to $build: $!\n";
}

# build_kernel(top, tree, build, dest, log, jobs, tree_commit, from, [chained_from])
#   -> { release, objects, rebuilt, relinked }
# objects: the .o files in the folder; rebuilt: those make wrote (compiled or
# served by ccache), counted by mtime against a stamp taken before make.
sub build_kernel {
	my (%o) = @_;
	my ($tree, $build, $dest, $log, $jobs) = @o{qw(tree build dest log jobs)};
	# ccache: paths relative to the project, so another clone hits too.
	local $ENV{CCACHE_BASEDIR} = $o{top};
	local $ENV{CCACHE_NOHASHDIR} = 1;
	local $ENV{KBUILD_BUILD_TIMESTAMP} = 'vmab';	# stable, cache-friendly
	local $ENV{KBUILD_BUILD_USER} = 'vmab';
	local $ENV{KBUILD_BUILD_HOST} = 'vmab';
	# A build farm: ccache runs the compiles it misses through distcc,
	# which sends them to $DISTCC_HOSTS.
	my $prefix = $ENV{CCACHE_PREFIX} // (length($ENV{DISTCC_HOSTS} // '') ? 'distcc' : undef);
	local $ENV{CCACHE_PREFIX} = $prefix if defined $prefix;
	die "DISTCC_HOSTS is set but distcc is not installed (Debian package distcc)\n"
		if ($prefix // '') eq 'distcc' && !grep { -x "$_/distcc" } split /:/, $ENV{PATH} // '';
	unlink "$build/$BUILT_STAMP";
	my $mark = "$build/.vmab-make-start";
	spew($mark, '');
	my $t0 = (Time::HiRes::stat($mark))[9];
	my @make = ('make', '-C', $tree, "O=$build", 'ARCH=x86_64', 'CC=ccache gcc', '-j' . ($jobs || 3));
	keep_objtool($o{chained_from}, $build, $log, @make) if $o{chained_from};
	run_logged($log, @make, 'bzImage');
	make_path($dest);
	copy("$build/arch/x86/boot/bzImage", "$dest/bzImage")
		or die "copy bzImage: $!\n";
	my %r = (release => kernel_release($build), objects => 0, rebuilt => 0);
	File::Find::find({ no_chdir => 1, wanted => sub {
		return unless /\.o\z/ && -f $_;
		$r{objects}++;
		$r{rebuilt}++ if (Time::HiRes::stat($_))[9] >= $t0;
	} }, $build);
	$r{relinked} = (Time::HiRes::stat("$build/vmlinux"))[9] >= $t0 ? 1 : 0;
	spew("$build/$BUILT_STAMP", "tree $o{tree_commit}\nfrom " . ($o{from} // '-') . "\n")
		if defined $o{tree_commit};
	return \%r;
}

# keep_objtool($from, $build, $log, @make): objtool is the one part of an O=
# folder built with absolute paths (tools/ makes with O=$(abspath ...)), so in
# a copy tools/objtool is rebuilt and relinked, and since every kernel object
# depends on the objtool binary, make would then rebuild them all.  objtool
# does not depend on the kernel configuration: build it first, and when it is
# the predecessor's binary (the same once debug info and build-id are
# stripped, which are what differ), give its files the predecessor's mtime,
# so that the bzImage make finds it up to date and older than the objects.
sub keep_objtool {
	my ($from, $build, $log, @make) = @_;
	my $old = "$from/tools/objtool/objtool";
	return unless -e $old;
	run_logged($log, @make, 'tools/objtool');
	my $new = "$build/tools/objtool/objtool";
	my @strip = ('strip', '-s', '-R', '.note.gnu.build-id', '-o');
	my $same = -e $new && eval {
		run_logged($log, @strip, "$build/.objtool-old", $old);
		run_logged($log, @strip, "$build/.objtool-new", $new);
		slurp("$build/.objtool-old") eq slurp("$build/.objtool-new");
	};
	unlink "$build/.objtool-old", "$build/.objtool-new";
	if (!$same) {
		if (open(my $fh, '>>', $log)) {
			print $fh "vmab: objtool differs from $old: every object is rebuilt\n";
		}
		return;
	}
	my $t = (Time::HiRes::stat($old))[9];
	File::Find::find({ no_chdir => 1, wanted => sub {
		Time::HiRes::utime($t, $t, $_) if -f $_ && !-l $_;
	} }, "$build/tools/objtool");
}

sub kernel_release {
	my ($build) = @_;
	open(my $fh, '<', "$build/include/config/kernel.release") or return 'unknown';
	my $r = <$fh> // 'unknown';
	chomp $r;
	return $r;
}

1;
