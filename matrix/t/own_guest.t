# A guest of its own list (matrix/variants.conf's LIST:MODES; VMAB::Parts):
# the table read, the list's kernel arguments, the part planned only in a
# run that names its list, that list kept from the ordinary guests, the
# command line it boots with, and its results merged into the variant's
# one verdict.  A stand-in QEMU plays /init, as in parts.t.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Path qw(make_path);
use File::Temp qw(tempdir);
use VMAB::Driver;
use VMAB::Expectations qw(load_known);
use VMAB::File qw(slurp spew);
use VMAB::Parts qw(plan_parts list_args merge_results);
use VMAB::Stage::Boot qw(boot_one boot_plan guest_lists);
use VMAB::Tap qw(parse_results);
use VMAB::Variants qw(load_variants own_lists mode_order);

$VMAB::Log::QUIET = 1;
my $top = "$FindBin::Bin/../..";
my $dir = tempdir(CLEANUP => 1);

# The table.
spew("$dir/variants.conf", "a x swap-classic,noswap-mglru/zone:swap-classic 900 1\n"
     . "b y swap-classic/noswap-classic/zone:noswap-classic,swap-mglru 900 2\nc z noswap-classic 900 3\n");
my ($va, $vb, $vc) = @{load_variants("$dir/variants.conf")};
is_deeply($va, { name => 'a', fragments => ['x'], modes => [qw(swap-classic noswap-mglru)], timeout => 900,
		 report => 1, own => [{ list => 'zone.list', modes => ['swap-classic'] }] },
	  'a row with a guest of its own list: own, apart from modes; one ordinary guest, no guests field');
is_deeply([$vb->{guests}, $vb->{own}], [[['swap-classic'], ['noswap-classic']],
	  [{ list => 'zone.list', modes => [qw(noswap-classic swap-mglru)] }]],
	  '... beside a split: the split in guests, the own guest in own');
ok(!exists $vc->{own}, '... a row without one has no own field');
is_deeply(own_lists([$va, $vb, $vc]), { 'zone.list' => 1 }, 'own_lists: the lists some row runs on their own');
is_deeply([mode_order("$dir/variants.conf")], [qw(swap-classic noswap-mglru noswap-classic swap-mglru)],
	  'mode_order counts an own guest\'s modes');
for ([ 'a x zone:swap-classic 900 1', qr/an empty guest/, 'an own guest without an ordinary one' ],
     [ 'a x swap-classic/zone: 900 1', qr/an empty guest/, 'an own guest without modes' ],
     [ 'a x swap-classic/zone:swap-classic,swap-classic 900 1', qr/a mode twice in the guest of zone.list/,
       'a mode twice in an own guest' ],
     [ 'a x swap-classic/zone:swap-classic/zone:noswap-classic 900 1', qr/two guests of one list/,
       'two guests of one list' ],
     [ 'a x swap-classic/zone:swap-lru 900 1', qr/unknown mode 'swap-lru'/, 'an unknown mode in an own guest' ]) {
	spew("$dir/bad.conf", "$_->[0]\n");
	eval { load_variants("$dir/bad.conf") };
	like($@, $_->[1], "refused: $_->[2]");
}

# The list's kernel arguments.
spew("$dir/l.list", "# a list\n#  vmab-args:  movablecore=1G  quiet \nprog\n");
is(list_args("$dir/l.list"), 'movablecore=1G  quiet', 'list_args: the vmab-args line');
spew("$dir/m.list", "prog\n");
is(list_args("$dir/m.list"), '', '... none: empty');
like(list_args("$top/suite/zone.list"), qr/^movablecore=\d+M$/, '... suite/zone.list asks for movablecore=');

# The plan: the own guest only when the run names its list.
my $suite = "$top/suite";
is_deeply([map { $_->{dir} } @{plan_parts($va, '/l')}], ['/l/a'], 'plan without the run\'s lists: as before');
is_deeply([map { $_->{dir} } @{plan_parts($va, '/l', lists => ['run.list'], suite => $suite)}], ['/l/a'],
	  '... a run without zone.list (make bench, make stress): one guest, out/logs/V');
my $p = plan_parts($va, '/l', lists => [qw(run.list zone.list)], suite => $suite);
is_deeply([map { [@$_{qw(n of once dir what)}, $_->{list}] } @$p],
	  [[1, 2, 1, '/l/a/part-1', 'a guest 1 of 2 (swap-classic,noswap-mglru)', undef],
	   [2, 2, 0, '/l/a/part-2', 'a guest 2 of 2 (zone.list: swap-classic)', '/suite/zone.list']],
	  '... a run with it: one more part, its list, no once programs');
is($p->[1]{args}, list_args("$suite/zone.list"), '... booted with the list\'s arguments');
is_deeply([map { scalar @{$_->{modes}} } @{plan_parts($vb, '/l', lists => ['zone.list'], suite => $suite)}],
	  [1, 1, 2], '... after a split\'s guests');

# Which lists the ordinary guests get.
my %opt = (out => "$dir/out", 'timeout-factor' => 1, rerun => 0);
my ($gl, $all) = guest_lists(VMAB::Driver::context($top, { %opt, list => 'run.list,selftests.list,zone.list' }));
is_deeply([$gl, $all], ['/suite/run.list,/suite/selftests.list', [qw(run.list selftests.list zone.list)]],
	  'guest_lists: zone.list kept from the ordinary guests, still a list of the run');
eval { guest_lists(VMAB::Driver::context($top, { %opt, list => 'zone.list' })) };
like($@, qr/each is the list of a guest of its own/, '... a run of own lists alone is refused');

# The command lines.
my $ctx = VMAB::Driver::context($top, { %opt, list => 'run.list,zone.list' });
my (undef, undef, $own_line) = boot_plan($ctx, $va, 'tcg', '/suite/run.list', $p->[1]);
is($own_line, "$p->[1]{args} vmab_variant=a vmab_modes=swap-classic vmab_list=/suite/zone.list vmab_cpus=2 vmab_once=0",
   'boot_plan: the own guest\'s arguments, its list and modes, vmab_once=0');
my (undef, undef, $line) = boot_plan($ctx, $va, 'tcg', '/suite/run.list', $p->[0]);
is($line, 'vmab_variant=a vmab_modes=swap-classic,noswap-mglru vmab_list=/suite/run.list vmab_cpus=2',
   '... the ordinary guest\'s: as before');
(undef, undef, $line) = boot_plan($ctx, $va, 'tcg', '/suite/dev.list', undef, 'movablecore=1G');
like($line, qr/^movablecore=1G vmab_variant=a /, '... a developer\'s --append');

# The hello of a merge names each mode once.
like(merge_results('a', "\@\@vmab hello variant=a kernel=k modes=swap-classic,noswap-mglru clocksource=tsc cpus=2\n",
		   "\@\@vmab hello variant=a kernel=k modes=swap-classic clocksource=tsc cpus=2\n"),
     qr/modes=swap-classic,noswap-mglru clocksource/, 'merge: the hello names each mode once');

# Boots with a stand-in QEMU.
my $fake = "$dir/qemu";
spew($fake, <<'EOS');
#!/usr/bin/perl
# Plays QEMU and suite/init.sh: base_test in each mode, zone_test instead
# when the list is zone.list.
my ($append) = map { $ARGV[$_ + 1] } grep { $ARGV[$_] eq '-append' } 0 .. $#ARGV;
my @files = map { /^file:(.*)/ ? $1 : () } @ARGV;
my %a = $append =~ /\b(vmab_\w+)=(\S+)/g;
open(my $r, '>>', $ENV{RUNS}); print $r "$append\n"; close $r;
open(my $c, '>', $files[0]); print $c "Linux version 6.1.192+\nRun /init as init process\n"; close $c;
open(my $o, '>', $files[1]);
print $o "\@\@vmab hello variant=$a{vmab_variant} kernel=6.1.192+ modes=$a{vmab_modes} clocksource=tsc cpus=2\n";
my ($p, $t) = $a{vmab_list} =~ /zone\.list/ ? ('zone_test', 'zone.vrange_purge_keeps_to_eligible_zones')
	: ('base_test', 'madv_dontneed_zeroes_pages');
for my $m (split /,/, $a{vmab_modes}) {
	print $o "\@\@vmab begin mode=$m prog=$p\nTAP version 13\n1..1\nok 1 $t\n";
	print $o "\@\@vmab end mode=$m prog=$p rc=0 ms=7 clocksource=tsc\n";
}
print $o "\@\@vmab done\n";
EOS
chmod 0755, $fake;
local $VMAB::Qemu::QEMU = $fake;
local $ENV{RUNS} = "$dir/runs";
my $out = $opt{out};
make_path("$out/a", "$out/build/a");
spew("$out/a/bzImage", 'kernel');
spew("$dir/initrd", 'initrd');
spew("$out/build/a/.config", "CONFIG_SWAP=y\nCONFIG_LRU_GEN=y\nCONFIG_VRANGE=y\nCONFIG_VM_EVENT_COUNTERS=y\n");
my %boot = (phases => {}, release => '6.1.192+', accel => 'tcg', initrd => "$dir/initrd",
	    lists => '/suite/run.list', qemu => '7.2', known => load_known("$top/matrix/known.tsv", $suite));
sub runs { my @r = split /\n/, slurp("$dir/runs"); unlink "$dir/runs"; @r }

my $x = boot_one($ctx, %boot, variant => $va, run_lists => [qw(run.list zone.list)]);
my @r = runs();
is(scalar @r, 2, 'a variant with a guest of its own list: two QEMUs');
unlike($r[0], qr/movablecore|zone\.list/, '... the ordinary guest without its arguments or list');
like($r[1], qr/ movablecore=\d+M vmab_variant=a vmab_modes=swap-classic vmab_list=\/suite\/zone\.list /,
     '... the own guest with them');
is_deeply([map { "$_->{mode} $_->{test} $_->{status}" } @{$x->{results}}],
	  ['swap-classic base_test/madv_dontneed_zeroes_pages pass', 'noswap-mglru base_test/madv_dontneed_zeroes_pages pass',
	   'swap-classic zone_test/zone.vrange_purge_keeps_to_eligible_zones pass'],
	  '... one record with both guests\' results');
is_deeply([$x->{outcome}, $x->{problems}], ['PASS', []], '... one verdict: PASS, nothing unexpected');
like(slurp("$ctx->{logs}/a/results.log"), qr/modes=swap-classic,noswap-mglru clocksource/,
     '... the merged hello names each mode once');
$x = boot_one($ctx, %boot, variant => $va, run_lists => ['run.list']);
is(scalar runs(), 1, 'a run without zone.list: the ordinary guest alone');

# The real table and Makefile.
my @real = grep { $_->{own} } @{load_variants()};
is_deeply([map { $_->{name} } @real], [qw(both vrange)], 'the real table: both and vrange boot a zone guest');
for my $v (@real) {
	for my $o (@{$v->{own}}) {
		is($o->{list}, 'zone.list', "$v->{name}: its own guest runs zone.list");
		ok(VMAB::Variants::wants_swap_disk($o), "$v->{name}: ... in a swap mode among others, "
		   . 'so that it gets the disk whose page cache zone_test reads');
	}
}
my $mk = slurp("$top/Makefile");
like($mk, qr/^check:.*\n\t\$\(DRIVER\) run .*--list \S*\bzone\.list\b/m, 'make check runs zone.list');
like($mk, qr/^matrix:.*\n\t\$\(DRIVER\) run .*--list \S*\bzone\.list\b/m, 'make matrix runs zone.list');
unlike($mk, qr/^(?:bench|stress):.*\n\t\$\(DRIVER\) run .*\bzone\.list\b/m, '... make bench and make stress do not');

# vmab boot --prog --append.
my (undef, $o) = VMAB::Driver::parse_args([qw(boot --prog zone_test --append movablecore=1G)], top => $top);
is($o->{append}, 'movablecore=1G', 'vmab boot --prog takes --append');
eval { VMAB::Driver::parse_args([qw(boot --append movablecore=1G)], top => $top) };
like($@, qr/--append are for vmab boot --prog/, '... only with --prog');
done_testing;
