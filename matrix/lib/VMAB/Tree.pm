package VMAB::Tree;
# The kernel tree: unpack Debian's linux-source tarball once into a git
# repository whose first commit (tag "pristine") is the untouched tree, then
# apply patches/{common,vrange,madv-free} from their series files with git am
# on a branch "patched".  Re-patching is skipped while neither the tarball
# nor any patch or series file changed (a stamp holds their digest).
use strict;
use warnings;
use Exporter 'import';
use Cwd ();
use Digest::SHA;
use File::Path qw(make_path remove_tree);
use VMAB::File qw(slurp spew);
use VMAB::Log qw(info);
use VMAB::Run qw(run_logged);

our @EXPORT_OK = qw(prepare_tree patch_digest series_patches);

our @SERIES = qw(common vrange madv-free);

# The patches of one series, in order; dies on a listed file that is missing.
sub series_patches {
	my ($patchdir, $series) = @_;
	my $file = "$patchdir/$series/series";
	return () unless -e $file;
	open(my $fh, '<', $file) or die "cannot read $file: $!\n";
	my @p;
	while (my $l = <$fh>) {
		$l =~ s/#.*//;
		$l =~ s/^\s+|\s+$//g;
		next unless length $l;
		die "$file lists $l, which does not exist\n"
			unless -f "$patchdir/$series/$l";
		push @p, "$patchdir/$series/$l";
	}
	return @p;
}

sub patch_digest {
	my ($tarball, $patchdir) = @_;
	my $sha = Digest::SHA->new(256);
	my @st = stat($tarball) or die "no kernel tarball at $tarball\n";
	$sha->add("tarball $tarball $st[7] $st[9]\n");
	for my $s (@SERIES) {
		my $file = "$patchdir/$s/series";
		$sha->add("series $s\n");
		$sha->addfile($file) if -e $file;
		$sha->addfile($_) for series_patches($patchdir, $s);
	}
	return $sha->hexdigest;
}

sub git { my ($tree, $log, @a) = @_; run_logged($log, 'git', '-C', $tree, @a) }

# prepare_tree(tarball, patchdir, srcdir, logdir) -> path of the patched tree
sub prepare_tree {
	my (%o) = @_;
	my ($tarball, $patchdir, $src, $logdir) = @o{qw(tarball patchdir src logdir)};
	$patchdir = Cwd::abs_path($patchdir) // die "no patch folder $o{patchdir}\n";
	my $tree = "$src/linux";
	my $log = "$logdir/tree.log";
	make_path($src, $logdir);
	my $digest = patch_digest($tarball, $patchdir);
	my $stamp = "$src/patched.stamp";
	if (-d "$tree/.git" && -e $stamp && slurp($stamp) eq $digest) {
		info('tree: tarball and patches unchanged, reusing ' . $tree);
		return $tree;
	}
	unlink $stamp;
	my $tar_stamp = "$src/unpacked.stamp";
	my $tar_id = join(' ', $tarball, (stat $tarball)[7, 9]);
	if (!(-d "$tree/.git" && -e $tar_stamp && slurp($tar_stamp) eq $tar_id)) {
		remove_tree($tree);
		make_path($tree);
		info("tree: unpacking $tarball");
		run_logged($log, 'tar', '-xf', $tarball, '-C', $tree,
			   '--strip-components=1');
		git($tree, $log, 'init', '-q');
		# No background "gc --auto" repacking 80,000 loose objects
		# while the kernels build: the tree is thrown away, not kept.
		git($tree, $log, 'config', 'gc.auto', '0');
		git($tree, $log, 'config', 'maintenance.auto', 'false');
		# Debian's .gitignore ignores the whole top level: force.
		git($tree, $log, 'add', '-A', '-f');
		git($tree, $log, '-c', 'user.name=vmab', '-c', 'user.email=vmab@localhost',
		    'commit', '-q', '-m', "pristine: $tarball");
		git($tree, $log, 'tag', '-f', 'pristine');
		spew($tar_stamp, $tar_id);
	}
	git($tree, $log, 'am', '--abort') if -d "$tree/.git/rebase-apply";
	git($tree, $log, 'checkout', '-q', '-f', '-B', 'patched', 'pristine');
	for my $s (@SERIES) {
		for my $p (series_patches($patchdir, $s)) {
			eval {
				git($tree, $log, '-c', 'user.name=vmab',
				    '-c', 'user.email=vmab@localhost',
				    'am', '-q', '--keep-cr', '--committer-date-is-author-date', $p);
				1;
			} or do {
				eval { git($tree, $log, 'am', '--abort') };
				(my $name = $p) =~ s{.*/patches/}{patches/};
				die "patch does not apply: $name\n  log: $log\n";
			};
		}
	}
	spew($stamp, $digest);
	return $tree;
}

1;
