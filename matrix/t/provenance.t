# Where results came from (VMAB::Provenance): the project's commit with a
# -dirty mark, and a stored matrix.json whose variants come from two runs of
# two trees (a partial run, V=both, after a full one) rendered with both
# runs named, in the header and in the Variants table.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use VMAB::File qw(slurp spew);
use VMAB::Results qw(load_matrix);
use VMAB::Provenance qw(sources project_commit run_provenance variant_provenance);
use VMAB::Report qw(report_md);

my $m = load_matrix("$FindBin::Bin/fixtures/two-sources-matrix.json");
is_deeply([map { [@$_{qw(run_id recorded)}, $_->{variants}] } sources($m)],
	  [['2026-12-07 04:10:00 UTC', 1, ['both']], ['2026-12-06 21:00:00 UTC', 1, ['none', 'vrange']]],
	  'two sources: the latest run first, each with its variants');
my $md = report_md($m, tempdir(CLEANUP => 1));
my ($head) = $md =~ /^(Generated .*)$/m;
like($head, qr/\*\*These results come from 2 runs, not one, of 2 different kernel trees:\*\* /, 'the header says two runs of two trees');
like($head, qr/the run of 2026-12-07 04:10:00 UTC \(project `abcdef012345-dirty`, tree `222222222222`, patches `bbbbbbbbbbbb`, QEMU 7\.2\.11, gcc \(Debian 12\.2\.0-14\) 12\.2\.0\): both;/,
     '... naming the partial run, its commits and its variant');
like($head, qr/the run of 2026-12-06 21:00:00 UTC \(project `0123456789ab`, tree `111111111111`, .*\): none, vrange /,
     '... and the earlier one with its variants');
like($md, qr/^\| both \| PASS \| 2026-12-07 04:10:00 UTC: project `abcdef012345-dirty`, tree `222222222222` \|/m,
     'the Variants table: each variant\'s source and date');
like($md, qr/^\| none \| PASS \| 2026-12-06 21:00:00 UTC: project `0123456789ab`, tree `111111111111` \|/m, '... the other run\'s too');

# One run: said once, plainly.
delete $m->{variants}{$_} for qw(none vrange);
like(report_md($m, tempdir(CLEANUP => 1)), qr/Every variant comes from the run of 2026-12-07 04:10:00 UTC \(project/,
     'one source: one run named');
delete $m->{variants}{both}{provenance};
like(report_md($m, tempdir(CLEANUP => 1)), qr/Where these results came from is not recorded \(a matrix\.json from before schema 2\)\./,
     'an old matrix.json: said to have none');

# The project's commit, marked dirty by a change to a tracked file.
SKIP: {
	skip 'git not installed', 3 unless grep { -x "$_/git" } split /:/, $ENV{PATH};
	my $repo = tempdir(CLEANUP => 1);
	system("cd $repo && git init -q && git -c user.email=t\@t -c user.name=t commit -q --allow-empty -m x") == 0 or die;
	spew("$repo/f", "a\n");
	like(project_commit($repo), qr/^[0-9a-f]{40}$/, 'a clean checkout: the commit (untracked files do not count)');
	system("cd $repo && git add f") == 0 or die;
	like(project_commit($repo), qr/^[0-9a-f]{40}-dirty$/, 'a changed tracked file: -dirty');
	is(project_commit(tempdir(CLEANUP => 1)), 'unknown', 'not a git checkout: unknown');
}
# The run's part: what cannot be read says so, and the run goes on.
{
	open(my $save, '>&', \*STDERR) or die;
	open(STDERR, '>', '/dev/null');
	my $r = run_provenance(run_id => 'r', top => tempdir(CLEANUP => 1), tree => '/nonexistent',
			       tarball => '/nonexistent', patchdir => '/nonexistent', qemu => '7.2');
	open(STDERR, '>&', $save) or die;
	is_deeply($r, { run_id => 'r', project_commit => 'unknown', tree_commit => 'unknown', patch_digest => 'unknown',
			qemu_version => '7.2' }, 'a run without a tree, tarball or git checkout: unknown, not a failure');
}
my $build = tempdir(CLEANUP => 1);
mkdir "$build/include";
mkdir "$build/include/generated";
spew("$build/include/generated/compile.h", "#define LINUX_COMPILER \"gcc (Debian 12.2.0-14) 12.2.0, GNU ld 2.40\"\n");
spew("$build/.vmab-built", "tree 3333\nfrom -\n");
spew("$build/.config", "CONFIG_VRANGE=y\n");
is_deeply(variant_provenance({ run_id => 'r', tree_commit => 'now', qemu_version => '7.2' }, build => $build),
	  { run_id => 'r', tree_commit => '3333', qemu_version => '7.2', compiler => 'gcc (Debian 12.2.0-14) 12.2.0, GNU ld 2.40',
	    config_sha256 => '9f6ec825cbac2233e95f20a1a26da15b580b19add290d47f124976bf92e8bdca' },
	  'a variant: the tree it was built from, its .config\'s digest, its compiler');
done_testing;
