# Where a variant's build starts: its own folder, a copy of an earlier
# variant's, or nothing (VMAB::Kbuild::chain_plan); and the copy itself.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use VMAB::Kbuild qw(chain_plan chain_build_dir built_from_tree objects_depending_on few_objects_to_rebuild);
use VMAB::File qw(slurp spew);

my @order = qw(none madv-free both vrange swapless debug);
sub plan_of {
	my (%o) = @_;
	return join(' ', chain_plan(order => \@order, tree => 'NEW', built => {}, present => {}, %o));
}

is(plan_of(name => 'none'), 'empty', 'the first variant on a clean out/: from nothing');
is(plan_of(name => 'madv-free', built => { none => 'NEW' }, present => { none => 1 }),
   'copy none', 'a new folder starts from the row above');
is(plan_of(name => 'both', built => { none => 'NEW' }, present => { none => 1 }),
   'copy none', '... or the nearest built one above it');
is(plan_of(name => 'both', built => { none => 'NEW', 'madv-free' => 'OLD' },
	   present => { none => 1, 'madv-free' => 1 }),
   'copy none', '... built from the current tree');
is(plan_of(name => 'both', built => { none => 'OLD', 'madv-free' => 'OLD' },
	   present => { none => 1, 'madv-free' => 1 }),
   'copy madv-free', 'a new folder copies a stale one rather than start empty');
is(plan_of(name => 'madv-free', built => { none => 'NEW' }, present => { none => 1, 'madv-free' => 1 }),
   'copy none', 'a folder whose last build failed (no stamp) is replaced');
is(plan_of(name => 'madv-free', built => { none => 'NEW', 'madv-free' => 'NEW' },
	   present => { none => 1, 'madv-free' => 1 }),
   'keep', 'a folder built from the current tree is kept');
is(plan_of(name => 'madv-free', built => { none => 'NEW', 'madv-free' => 'OLD' },
	   present => { none => 1, 'madv-free' => 1 }),
   'copy none', 'a folder built before a header changed is replaced');
is(plan_of(name => 'debug', in_place => 1, built => { swapless => 'NEW', debug => 'OLD' },
	   present => { swapless => 1, debug => 1 }),
   'keep', 'a folder built before a change few of its objects depend on is kept');
is(plan_of(name => 'madv-free', built => { 'madv-free' => 'OLD' }, present => { 'madv-free' => 1 }),
   'keep', 'a stale folder with nothing current above it is kept');
is(plan_of(name => 'lean', built => { none => 'NEW' }, present => { none => 1 }),
   'empty', 'a variant not in the table starts from nothing');

# Which objects depend on changed sources: their .cmd files, as Kbuild
# writes them (paths relative to the build folder, or absolute).
{
	my $top = tempdir(CLEANUP => 1);
	mkdir $_ for "$top/src", "$top/src/linux", "$top/build", "$top/build/v", "$top/build/v/mm";
	my ($tree, $b) = ("$top/src/linux", "$top/build/v");
	my $cmd = sub { my ($obj, $src, @deps) = @_;
		spew("$b/mm/.$obj.o.cmd", "cmd_mm/$obj.o := gcc -include $tree/include/linux/kconfig.h\n\n" .
		     "source_mm/$obj.o := ../../src/linux/mm/$src\n\ndeps_mm/$obj.o := \\\n" .
		     join('', map { "  ../../src/linux/$_ \\\n" } @deps) . "\nmm/$obj.o: \$(deps_mm/$obj.o)\n") };
	$cmd->('vrange', 'vrange.c', 'include/linux/vrange.h', 'include/linux/mm.h');
	$cmd->('vmscan', 'vmscan.c', 'include/linux/vrange.h', 'include/linux/mm.h');
	$cmd->("o$_", "o$_.c", 'include/linux/mm.h') for 1 .. 18;
	spew("$b/mm/.o1.d", 'include/linux/vrange.h');	# not a .cmd file
	is_deeply([objects_depending_on($b, $tree, ['include/linux/vrange.h'])], [2, 20],
		  'objects whose deps name the header, out of all with a .cmd file');
	is_deeply([objects_depending_on($b, $tree, ['mm/o3.c'])], [1, 20], 'a source names its own object');
	is_deeply([objects_depending_on($b, $tree, ['include/linux/kconfig.h'])], [20, 20],
		  'an absolute path counts too');
	is_deeply([objects_depending_on($b, $tree, ['linux/vrange.h'])], [0, 20],
		  'a path matches whole, from the top of the tree');
	ok(few_objects_to_rebuild($b, $tree, ['include/linux/vrange.h', 'mm/vrange.c']),
	   '2 of 20 objects: rebuilt in place');
	ok(!few_objects_to_rebuild($b, $tree, ['include/linux/mm.h']), '20 of 20: copied from a neighbour');
	ok(!few_objects_to_rebuild($b, $tree, ['mm/vrange.c', 'mm/Makefile']), 'a Makefile: copied');
	ok(few_objects_to_rebuild($b, $tree, []), 'no file changed: in place');
	ok(!few_objects_to_rebuild($b, $tree, undef), 'changes not known (an old commit gone): copied');
}

my $d = tempdir(CLEANUP => 1);
mkdir "$d/a";
mkdir "$d/a/sub";
spew("$d/a/sub/x.o", 'object');
utime(1_000_000, 1_000_000, "$d/a/sub/x.o");
symlink('/nowhere', "$d/a/source");
spew("$d/a/$VMAB::Kbuild::BUILT_STAMP", "tree NEW\nfrom -\n");
is(built_from_tree("$d/a"), 'NEW', 'the stamp names the tree commit');
mkdir "$d/b";
spew("$d/b/stale", '');
chain_build_dir("$d/a", "$d/b", "$d/log");
is(slurp("$d/b/sub/x.o"), 'object', 'the copy has the objects');
is((stat "$d/b/sub/x.o")[9], 1_000_000, '... with their mtimes');
ok((stat "$d/b/sub/x.o")[1] != (stat "$d/a/sub/x.o")[1], '... as copies, not hard links');
is(readlink("$d/b/source"), '/nowhere', '... and symlinks as symlinks');
ok(!-e "$d/b/stale", 'what the folder held before is gone');
ok(!defined built_from_tree("$d/b"), "the copy does not claim the original's build");
ok(!-e "$d/b.chain-tmp", 'no temporary folder left');
done_testing;
