# Re-patching moves the tree to the new series' commit rewriting only the
# files whose content differs (mtimes of the others kept, so that make
# rebuilds only what the change reaches); a patch that does not apply is named.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use VMAB::File qw(slurp spew);
use VMAB::Log;
use VMAB::Tree qw(prepare_tree tree_commit changed_files);

plan skip_all => 'no git' unless grep { -x "$_/git" } split /:/, $ENV{PATH} // '';
$VMAB::Log::QUIET = 1;
my $d = tempdir(CLEANUP => 1);
sub sh { system(@_) == 0 or die "failed: @_\n" }

# A two-file "kernel", its tarball, and two patches made with git format-patch.
mkdir "$d/k";
mkdir "$d/k/src";
spew("$d/k/src/a.c", "int a;\n");
spew("$d/k/src/b.h", "#define B 1\n");
sh('tar', '-C', "$d/k", '-cf', "$d/k.tar", 'src');
my @g = ('git', '-C', "$d/k/src", '-c', 'user.name=t', '-c', 'user.email=t@t');
sh(@g, 'init', '-q');
sh(@g, 'add', '-A');
sh(@g, 'commit', '-q', '-m', 'base');
spew("$d/k/src/a.c", "int a = 1;\n");
sh(@g, 'commit', '-q', '-am', 'a: one');
spew("$d/k/src/b.h", "#define B 2\n");
sh(@g, 'commit', '-q', '-am', 'b: two');
mkdir "$d/patches";
mkdir "$d/patches/common";
sh(@g, 'format-patch', '-q', '-o', "$d/patches/common", 'HEAD~2');
my @p = map { s{.*/}{}r } sort glob("$d/patches/common/*.patch");
spew("$d/patches/common/series", join("\n", @p) . "\n");

my %o = (tarball => "$d/k.tar", patchdir => "$d/patches", src => "$d/out/src", logdir => "$d/out/logs");
my $tree = prepare_tree(%o);
is(slurp("$tree/a.c") . slurp("$tree/b.h"), "int a = 1;\n#define B 2\n", 'both patches applied');
my $both = tree_commit($tree);
ok(-e "$d/out/src/am/.git", 'applied in the worktree out/src/am');

utime(1_000_000, 1_000_000, "$tree/a.c", "$tree/b.h");
spew("$d/patches/common/series", "$p[0]\n");
prepare_tree(%o);
is(slurp("$tree/b.h"), "#define B 1\n", 'without the second patch: b.h as it was');
isnt((stat "$tree/b.h")[9], 1_000_000, '... rewritten');
is((stat "$tree/a.c")[9], 1_000_000, 'a.c, the same, not rewritten');
is_deeply(changed_files($tree, $both, tree_commit($tree)), ['b.h'], 'changed_files names b.h');
is(changed_files($tree, 'f' x 40, tree_commit($tree)), undef, 'an unknown commit: undef');
like(`git -C $tree symbolic-ref HEAD`, qr{refs/heads/patched}, 'the tree is on branch patched');
is(`git -C $tree status --porcelain`, '', '... and clean');

spew("$d/patches/common/series", join("\n", @p) . "\n");
prepare_tree(%o);
is(tree_commit($tree), $both, 'both again: the same commit as the first time');

spew("$d/patches/common/$p[1]", slurp("$d/patches/common/$p[1]") =~ s/#define B 1/#define B 9/r);
ok(!eval { prepare_tree(%o); 1 }, 'a patch that does not apply stops');
like($@, qr{patch does not apply: .*\Q$p[1]\E}, '... naming it');
done_testing;
