# The driver (VMAB::Driver and its stages): the command line, the folders a
# context implies, one boot judged into its record and reused the next
# time, and vmab judge and vmab report classifying a last boot again.  A
# stand-in script plays QEMU, writing recorded logs (matrix/t/fixtures)
# where QEMU's two serial ports would.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Path qw(make_path);
use File::Temp qw(tempdir);
use JSON::PP;
use VMAB::Driver;
use VMAB::File qw(slurp spew);
use VMAB::Needs qw(load_declarations);
use VMAB::Record qw(variant_record);
use VMAB::Results qw(load_matrix save_matrix);
use VMAB::Stage::Boot qw(boot_one);
use VMAB::Stage::Judge qw(judge_boot);

$VMAB::Log::QUIET = 1;
my $fx = "$FindBin::Bin/fixtures";
my $top = "$FindBin::Bin/../..";

sub args { [VMAB::Driver::parse_args([@_], top => '/p', env => {})] }
sub args_error { eval { VMAB::Driver::parse_args([@_], top => '/p', env => {}) }; $@ }

# The command line.
is(args()->[0], 'run', 'no command: the whole run');
is(args('tree')->[0], 'tree', 'a command');
like(args_error('--tree-only'), qr/bad options/, 'the old option-style commands are gone');
my ($cmd, $opt) = @{args('--variants', 'none,both', 'run', '--judge', '--set', 'bench')};
is_deeply([$cmd, @$opt{qw(variants judge set out list)}], ['run', 'none,both', 1, 'bench', '/p/out', 'run.list'],
	  'options before and after the command');
is_deeply(args('boot', '--variant', 'both', '--prog', 'vrange_test', '--prog', 'base_test')->[1]{prog},
	  ['vrange_test', 'base_test'], 'vmab boot --prog, several');
my (undef, $envopt) = VMAB::Driver::parse_args([], top => '/p', env => { V => 'lean', RERUN => 1, VMAB_ACCEL => 'tcg' });
is_deeply([@$envopt{qw(variants rerun accel)}], ['lean', 1, 'tcg'], 'V, RERUN and VMAB_ACCEL from the environment');
like(args_error('frob'), qr/unknown command 'frob'/, 'an unknown command');
like(args_error('tree', 'build'), qr/one command/, 'two commands');
like(args_error('--accel', 'xen'), qr/auto, kvm or tcg/, 'a bad accelerator');
like(args_error('run', '--prog', 'x'), qr/for vmab boot/, '--prog only with boot');
like(args_error('boot', '--prog', 'x', '--fixtures', '--kernel', 'k'), qr/one at a time/, '--prog or --fixtures');
like(args_error('boot', '--fixtures'), qr/needs --kernel/, '--fixtures needs a kernel');
like(args_error('boot', '--fixtures', '--kernel', 'k', '--modes', 'swap-classic'), qr/for vmab boot --prog/,
     '--modes only with --prog');
is(args('boot', '--fixtures', '--kernel', 'k')->[1]{fixtures}, '', '--fixtures without names: all');
is(args('boot', '--fixtures', 'panic,oom', '--kernel', 'k')->[1]{fixtures}, 'panic,oom', '--fixtures with names');
like(args_error('boot', '--kernel', 'k'), qr/for vmab boot --prog/, '--kernel only with --prog');
like(args_error('boot', '--prog', 'x', '--variant', 'a,b'), qr/one variant/, 'a developer boot is one variant');

my $c = VMAB::Driver::context('/p', { out => '/o', set => 'bench' });
is_deeply([@$c{qw(logs results_dir json_file report_dir)}],
	  ['/o/logs/bench', '/o/results/bench', '/o/results/bench/matrix.json', '/o/report/bench'],
	  'a set keeps its logs, results and report apart');
$c = VMAB::Driver::context('/p', { out => '/o' });
is($c->{json_file}, '/o/results/matrix.json', 'no set: out/results');

# One boot, judged, then reused.
my $dir = tempdir(CLEANUP => 1);
my $out = "$dir/out";
my $ctx = VMAB::Driver::context($top, { out => $out, list => 'run.list', 'timeout-factor' => 1,
					rerun => 0, accel => 'tcg' });
make_path("$out/dev", "$out/build/dev", "$ctx->{logs}");
spew("$out/dev/bzImage", 'kernel');
spew("$dir/initrd", 'initrd');
# The clean fixture's tests need LRU_GEN and MEMCG (base_test declares so).
spew("$out/build/dev/.config", "CONFIG_SWAP=y\nCONFIG_LRU_GEN=y\nCONFIG_MEMCG=y\n");
my $fake = "$dir/qemu";
spew($fake, <<'EOS');
#!/bin/sh
# Plays QEMU: writes $FIXTURE's logs to the two -serial files, counts its runs.
n=0
for a; do case $a in file:*) n=$((n+1)); eval "f$n=\${a#file:}";; esac; done
cp "$FIXTURE.console" "$f1"; cp "$FIXTURE.results" "$f2"
echo x >> "$RUNS"
EOS
chmod 0755, $fake;
local $VMAB::Qemu::QEMU = $fake;
local $ENV{FIXTURE} = "$fx/clean";
local $ENV{RUNS} = "$dir/runs";
my $v = { name => 'dev', modes => ['noswap-classic'], timeout => 60 };
my %boot = (variant => $v, phases => { build => 5 }, release => '6.1.192+', accel => 'tcg',
	    initrd => "$dir/initrd", lists => '/suite/run.list', qemu => '7.2',
	    known => load_declarations("$top/suite"));
my $rec = boot_one($ctx, %boot);
is($rec->{outcome}, 'PASS', 'a clean boot: PASS') or diag explain $rec;
is(scalar @{$rec->{results}}, 10, '... its ten results in the record');
is_deeply($rec->{problems}, [], '... none unexpected');
is_deeply([@{$rec->{phases}}{qw(build boot_reused)}], [5, undef], '... the build phases kept');
like(slurp("$out/results/dev.tap"), qr/^1\.\.10\n/m, '... its TAP written');
is(slurp("$dir/runs"), "x\n", '... QEMU ran once');
$rec = boot_one($ctx, %boot);
is_deeply([$rec->{outcome}, $rec->{phases}{boot_reused}, slurp("$dir/runs")], ['PASS', 1, "x\n"],
	  'the same boot again: reused, no QEMU');
$rec = boot_one({ %$ctx, opt => { %{$ctx->{opt}}, rerun => 1 } }, %boot);
is(slurp("$dir/runs"), "x\nx\n", '--rerun boots again');
spew("$out/build/dev/.config", "CONFIG_SWAP=y\nCONFIG_LRU_GEN=y\n");
$rec = boot_one($ctx, %boot);
is_deeply([map { "$_->{mode} $_->{id} $_->{got}" } @{$rec->{problems}}],
	  ['swap-classic base_test/memcg_reclaim_reclaims_anon_with_swap pass',
	   'noswap-mglru base_test/memcg_reclaim_reclaims_anon_with_swap pass'],
	  'a reused boot is judged again: a .config without MEMCG makes its memcg passes unexpected');
spew("$out/build/dev/.config", "CONFIG_SWAP=y\nCONFIG_LRU_GEN=y\nCONFIG_MEMCG=y\n");

# vmab judge and vmab report classify the last boot again.
my $m = { generated => "g", accelerator => "tcg", qemu_version => "7.2", host_kernel => "h",
	  source_version => "6.1.192", variants => {
	dev => variant_record(outcome => 'FAIL', why => ['an old verdict'], results => [{ mode => 'm', test => 'base_test/old', status => 'fail' }],
			      phases => { build => 5, boot => 7 }, release => '6.1.192+'),
	broken => variant_record(outcome => 'BUILDFAIL', why => ['make failed']),
} };
$m->{variants}{dev}{run_at} = 'then';
save_matrix($ctx->{json_file}, $m);
is(VMAB::Driver::main('report', '--out', $out), 0, 'vmab report: exit 0');
$m = load_matrix($ctx->{json_file});
is_deeply([@{$m->{variants}{dev}}{qw(outcome why run_at)}], ['PASS', [], 'then'],
	  '... the last boot classified again from its logs (PASS, not the stored FAIL)');
is_deeply($m->{variants}{dev}{phases}, { build => 5, boot => 7 }, '... its phases kept');
is(scalar @{$m->{variants}{dev}{results}}, 10, '... its results read again');
is($m->{variants}{broken}{outcome}, 'BUILDFAIL', '... a build failure kept as it was');
like(slurp("$out/report/report.md"), qr/^\| dev \| PASS \|/m, '... and the report written');
is(VMAB::Driver::main('judge', '--out', $out), 1, 'vmab judge: 1, for the build failure');
system('cp', "$fx/hang.results", "$ctx->{logs}/dev/results.log");
system('cp', "$fx/hang.console", "$ctx->{logs}/dev/console.log");
delete $m->{variants}{broken};
$m->{variants}{dev}{phases}{boot_timed_out} = 1;
save_matrix($ctx->{json_file}, $m);
is(VMAB::Driver::main('judge', '--out', $out), 1, 'a boot that timed out: vmab judge 1');
$m = load_matrix($ctx->{json_file});
is_deeply([@{$m->{variants}{dev}}{qw(outcome why)}],
	  ['TIMEOUT', ["the guest says it is variant 'fixture', but dev was booted",
		       'the suite did not finish before the timeout']],
	  '... TIMEOUT, the timeout kept in its phases');

# An older record, without boot_timed_out: its why says it.
my $old = judge_boot(name => 'dev', dir => "$ctx->{logs}/dev", config => undef, timed_out => 1);
delete $old->{phases}{boot_timed_out};
save_matrix($ctx->{json_file}, { variants => { dev => $old } });
VMAB::Driver::main('judge', '--out', $out);
is(load_matrix($ctx->{json_file})->{variants}{dev}{why}[1], 'the suite did not finish before the timeout',
	  'an older record: the timeout read from its why');

# What vmab boot --prog prints.
my $s = VMAB::Driver::dev_summary({ outcome => 'FAIL', why => ['1 test(s) failed'], problems => [],
	results => [{ mode => 'swap-classic', test => 'p/a', status => 'fail', excerpt => ['p.c:9: Expected 1'] },
		    { mode => 'swap-classic', test => 'p/b', status => 'skip', reason => 'CONFIG_X=n' }] }, '/l');
is($s, "swap-classic    fail   p/a\n                       | p.c:9: Expected 1\n" .
       "swap-classic    skip   p/b (CONFIG_X=n)\nFAIL: 2 results (0 pass, 1 skip, 1 fail)\n" .
       "  1 test(s) failed\nlogs: /l/console.log, /l/results.log\n", 'the developer boot summary');
done_testing;
