# Where a variant's build starts: its own folder, a copy of an earlier
# variant's, or nothing (VMAB::Build::chain_plan); and the copy itself.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use VMAB::Build qw(chain_plan chain_build_dir built_from_tree);
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
is(plan_of(name => 'debug', only_c => 1, built => { swapless => 'NEW', debug => 'OLD' },
	   present => { swapless => 1, debug => 1 }),
   'keep', 'a folder built before only .c files changed is kept');
is(plan_of(name => 'madv-free', built => { 'madv-free' => 'OLD' }, present => { 'madv-free' => 1 }),
   'keep', 'a stale folder with nothing current above it is kept');
is(plan_of(name => 'lean', built => { none => 'NEW' }, present => { none => 1 }),
   'empty', 'a variant not in the table starts from nothing');

my $d = tempdir(CLEANUP => 1);
mkdir "$d/a";
mkdir "$d/a/sub";
spew("$d/a/sub/x.o", 'object');
utime(1_000_000, 1_000_000, "$d/a/sub/x.o");
symlink('/nowhere', "$d/a/source");
spew("$d/a/$VMAB::Build::BUILT_STAMP", "tree NEW\nfrom -\n");
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
