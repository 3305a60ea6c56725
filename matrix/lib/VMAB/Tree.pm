package VMAB::Tree;
# The kernel tree: unpack Debian's linux-source tarball once into a git
# repository whose first commit (tag "pristine") is the untouched tree, then
# apply patches/{vrange,madv-free,droppable,common,glue} from their series files
# with git am, in that order: the designs' series (each applies to pristine
# 6.1 on its own), then the matrix's own glue (common: the Kconfig menu that
# makes MADV_FREE selectable; glue: where the designs meet).
# Re-patching is skipped while neither the tarball nor any patch or series
# file changed (a stamp holds their digest).
#
# The series is applied in a second worktree (out/src/am, detached), and the
# tree the kernels build from (out/src/linux, branch "patched") is then moved
# to the resulting commit with git reset --hard, which rewrites only the files
# whose content differs.  Applying in place (checkout pristine, git am) would
# give every patched file a new mtime, include/linux/mm.h among them, and make
# then rebuilds most of the kernel for a one-line change in mm/vrange.c.
use strict;
use warnings;
use Exporter 'import';
use Cwd ();
use Digest::SHA;
use File::Path qw(make_path remove_tree);
use VMAB::File qw(slurp spew);
use VMAB::Log qw(info);
use VMAB::Run qw(run_logged capture);

our @EXPORT_OK = qw(prepare_tree patch_digest series_patches tree_commit changed_files);

our @SERIES = qw(vrange madv-free droppable common glue);

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
		remove_tree($tree, "$src/am");
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
	my $am = "$src/am";
	am_worktree($tree, $am, $log);
	my $am_state = capture('git', '-C', $am, 'rev-parse', '--git-path', 'rebase-apply');
	chomp $am_state;
	$am_state = "$am/$am_state" unless $am_state =~ m{^/};
	git($am, $log, 'am', '--abort') if -d $am_state;
	git($am, $log, 'checkout', '-q', '-f', '--detach', 'pristine');
	for my $s (@SERIES) {
		for my $p (series_patches($patchdir, $s)) {
			eval {
				git($am, $log, '-c', 'user.name=vmab',
				    '-c', 'user.email=vmab@localhost',
				    'am', '-q', '--keep-cr', '--committer-date-is-author-date', $p);
				1;
			} or do {
				eval { git($am, $log, 'am', '--abort') };
				(my $name = $p) =~ s{.*/patches/}{patches/};
				die "patch does not apply: $name\n  log: $log\n";
			};
		}
	}
	my $commit = tree_commit($am);
	# A tree left by an older driver may be in the middle of a git am.
	git($tree, $log, 'am', '--abort') if -d "$tree/.git/rebase-apply";
	git($tree, $log, 'checkout', '-q', '-B', 'patched');
	# Files whose stat changed but not their content (a cp, a touch) are
	# marked clean first, so that reset --hard does not rewrite them too.
	eval { git($tree, $log, 'update-index', '-q', '--refresh') };
	git($tree, $log, 'reset', '-q', '--hard', $commit);
	info("tree: $tree at $commit");
	spew($stamp, $digest);
	return $tree;
}

# The worktree the series is applied in, added once (a full checkout of the
# tree); made again when it is missing or no longer belongs to $tree (after
# the tree was unpacked again).
sub am_worktree {
	my ($tree, $am, $log) = @_;
	my $ok = -e "$am/.git" && eval {
		my $common = capture('git', '-C', $am, 'rev-parse', '--git-common-dir');
		chomp $common;
		$common = "$am/$common" unless $common =~ m{^/};
		Cwd::abs_path($common) eq Cwd::abs_path("$tree/.git");
	};
	return if $ok;
	remove_tree($am);
	git($tree, $log, 'worktree', 'prune');
	info("tree: adding the worktree $am that patches are applied in");
	git($tree, $log, 'worktree', 'add', '-q', '--detach', $am, 'pristine');
}

# The commit a tree (or worktree) is at.
sub tree_commit {
	my ($tree) = @_;
	my $c = capture('git', '-C', $tree, 'rev-parse', 'HEAD');
	chomp $c;
	return $c;
}

# changed_files($tree, $old, $new) -> the paths that differ between two
# commits, or undef when $old is no longer known (the tree was unpacked again).
sub changed_files {
	my ($tree, $old, $new) = @_;
	return undef unless defined $old && $old =~ /^[0-9a-f]{40}$/ &&
		eval { capture('git', '-C', $tree, 'rev-parse', '-q', '--verify', "$old^{commit}") };
	return [split /\n/, capture('git', '-C', $tree, 'diff', '--no-renames', '--name-only', $old, $new)];
}

1;
