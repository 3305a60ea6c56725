# A variant booted as several guests (VMAB::Parts): the split read from
# matrix/variants.conf, the "once" programs in the part with the first mode
# only, the parts' logs merged into the one boot the judge reads, each part
# reused on its own key, a part that did not finish failing the variant
# with its logs named, and the record and the report the same as for one
# guest.  A stand-in QEMU plays /init (suite/init.sh): it reads the
# vmab_ arguments of -append and writes frames for each mode it is given.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Path qw(make_path);
use File::Temp qw(tempdir);
use VMAB::Driver;
use VMAB::Expectations qw(load_known);
use VMAB::File qw(slurp spew);
use VMAB::Parts qw(plan_parts merge_results merge_console);
use VMAB::Protocol qw(cmdline);
use VMAB::Report qw(write_report);
use VMAB::Stage::Boot qw(boot_one guess_secs start_order);
use VMAB::Tap qw(parse_results);
use VMAB::Classify qw(classify);
use VMAB::Variants qw(load_variants guest_modes);

$VMAB::Log::QUIET = 1;
my $top = "$FindBin::Bin/../..";
my $dir = tempdir(CLEANUP => 1);

# The table: a slash between guests.
spew("$dir/variants.conf", "a x swap-classic/swap-mglru,noswap-classic 900 1\nb y noswap-classic 900 2\n");
my ($va, $vb) = @{load_variants("$dir/variants.conf")};
is_deeply([$va->{modes}, $va->{guests}], [[qw(swap-classic swap-mglru noswap-classic)],
	  [['swap-classic'], [qw(swap-mglru noswap-classic)]]], 'a split row: its modes, and its guests');
ok(!exists $vb->{guests}, '... a row of one guest has no guests field (as before)');
is_deeply(guest_modes($vb), [['noswap-classic']], '... guest_modes gives it one guest');
for ([ 'a x swap-classic//noswap-classic 900 1', qr/an empty guest/ ],
     [ 'a x swap-classic/ 900 1', qr/an empty guest/ ],
     [ 'a x swap-classic/swap-classic 900 1', qr/a mode twice/ ]) {
	spew("$dir/bad.conf", "$_->[0]\n");
	eval { load_variants("$dir/bad.conf") };
	like($@, $_->[1], "refused: $_->[0]");
}
my ($real) = grep { $_->{name} eq 'debug' } @{load_variants()};
is(scalar @{guest_modes($real)}, 2, 'the real table boots debug as two guests');

# The plan, and the once rule on the command line.
my $p = plan_parts($va, '/l');
is_deeply([map { [@$_{qw(n of once dir)}] } @$p], [[1, 2, 1, '/l/a/part-1'], [2, 2, 0, '/l/a/part-2']],
	  'plan: two parts in their own folders; only the one with the first mode runs the once programs');
is_deeply([map { [@$_{qw(n of once dir what)}] } @{plan_parts($vb, '/l')}], [[1, 1, 1, '/l/b', 'b']],
	  '... one guest: out/logs/V as before');
like(cmdline(variant => 'a', modes => 'm', list => 'l', once => 0), qr/ vmab_once=0$/, 'once => 0: vmab_once=0');
is(cmdline(variant => 'a', modes => 'm', list => 'l', once => 1), 'vmab_variant=a vmab_modes=m vmab_list=l',
   '... once => 1 leaves the line as it was (the reuse keys of one-guest variants stay)');
like(slurp("$top/suite/init.sh"), qr/once=\$\{vmab_once:-1\}/, 'suite/init.sh reads vmab_once');

# The merge of two parts' results logs.
sub part_log {
	my ($modes, %o) = @_;
	my $s = "\@\@vmab hello variant=" . ($o{variant} // 'a') . " kernel=k modes=$modes clocksource=tsc cpus=2\n";
	for my $m (split /,/, $modes) {
		$s .= "\@\@vmab begin mode=$m prog=t\nTAP version 13\n1..2\nok 1 one\n";
		if ($o{cut} && $o{cut} eq $m) {
			return $s;	# the guest stopped here
		}
		$s .= "ok 2 two\n\@\@vmab end mode=$m prog=t rc=0 ms=5 clocksource=tsc\n";
	}
	return "$s\@\@vmab done\n";
}
my $merged = merge_results('a', part_log('swap-classic'), part_log('swap-mglru,noswap-classic'));
is_deeply([grep { /^\@\@vmab (hello|done)/ } split /\n/, $merged],
	  ['@@vmab hello variant=a kernel=k modes=swap-classic,swap-mglru,noswap-classic clocksource=tsc cpus=2',
	   '@@vmab done'], 'merge: one hello naming every mode, one done');
my $one = parse_results(part_log('swap-classic,swap-mglru,noswap-classic'));
is_deeply(parse_results($merged), $one, '... parsed, the same as one guest that ran every mode');
my $cut = parse_results(merge_results('a', part_log('swap-classic', cut => 'swap-classic'),
					  part_log('swap-mglru,noswap-classic')));
ok(!$cut->{done}, 'a part that stopped: no done in the merge');
is_deeply([map { "$_->{mode} $_->{rc}" } @{$cut->{programs}}], ['swap-mglru 0', 'noswap-classic 0', 'swap-classic -1'],
	  '... its frames last, so its cut-off program is kept as cut off');
is(classify(results => $cut, console => '')->{outcome}, 'TIMEOUT', '... the variant TIMEOUT, as one guest');
is(classify(results => parse_results(merge_results('a', "", part_log('swap-mglru'))), console => '')->{outcome},
   'BOOTFAIL', 'a part that never said hello: BOOTFAIL');
like(merge_results('a', part_log('swap-classic'), part_log('swap-mglru', variant => 'z')),
     qr/hello variant=z /, 'a part that names another variant: its hello, for the classifier');
is(merge_console([{ what => 'a guest 1 of 2 (m)', dir => '/l' }], "x"),
   "vmab: ===== a guest 1 of 2 (m): /l/console.log =====\nx\n", 'merge_console: each part after a line naming it');

# The order the guests start in: the longest first, by the last run's
# seconds (the 2026-12-07 12:40 make check's), a split variant's guests
# each with their share, a variant never booted by its timeout.
my %last = (none => 151, droppable => 192, 'madv-free' => 199, both => 487, vrange => 185,
	    lean => 222, swapless => 243, debug => 1365);
my $m = { variants => { map { $_ => { phases => { boot => $last{$_} } } } keys %last } };
is(guess_secs($m, { name => 'both', timeout => 900 }), 487, 'guess: the last boot\'s seconds');
is(guess_secs($m, { name => 'new', timeout => 900 }), 900, '... else the timeout');
my @jobs = map { [$_, undef, guess_secs($m, { name => $_, timeout => 900 }) / ($_ eq 'debug' ? 2 : 1)] }
	qw(none droppable madv-free both vrange lean swapless debug new);
push @jobs, ['debug2', undef, $jobs[-2][2]];
is_deeply([map { $_->[0] } start_order(@jobs)],
	  [qw(new debug debug2 both swapless lean madv-free droppable vrange none)],
	  'start order: longest first, equal ones in their order');
# Two slots fed in that order end within the shortest guest of each other.
my @slot = (0, 0);
for my $j (sort { $b->[2] <=> $a->[2] } grep { $_->[0] ne 'new' } @jobs) {
	my $i = $slot[0] <= $slot[1] ? 0 : 1;
	$slot[$i] += $j->[2];
}
cmp_ok(abs($slot[0] - $slot[1]), '<=', 151, "... the slots end together ($slot[0] s and $slot[1] s)");

# Boots with a stand-in QEMU: the same variant as one guest and as two.
my $fake = "$dir/qemu";
spew($fake, <<'EOS');
#!/usr/bin/perl
# Plays QEMU and suite/init.sh: frames for each mode of vmab_modes, the
# once program in the first mode unless vmab_once=0; $CUT: stop in that mode.
my ($append) = map { $ARGV[$_ + 1] } grep { $ARGV[$_] eq '-append' } 0 .. $#ARGV;
my @files = map { /^file:(.*)/ ? $1 : () } @ARGV;
my %a = $append =~ /\b(vmab_\w+)=(\S+)/g;
open(my $r, '>>', $ENV{RUNS}); print $r "$append\n"; close $r;
open(my $c, '>', $files[0]); print $c "Linux version 6.1.192+\nRun /init as init process\n"; close $c;
open(my $o, '>', $files[1]);
print $o "\@\@vmab hello variant=$a{vmab_variant} kernel=6.1.192+ modes=$a{vmab_modes} clocksource=tsc cpus=2\n";
my $once = $a{vmab_once} // 1;
for my $m (split /,/, $a{vmab_modes}) {
	for my $p ('base_test', $once ? 'fuzz_test' : ()) {
		print $o "\@\@vmab begin mode=$m prog=$p\nTAP version 13\n1..1\n";
		exit 0 if ($ENV{CUT} // '') eq $m;
		print $o "ok 1 $p\n\@\@vmab end mode=$m prog=$p rc=0 ms=7 clocksource=tsc\n";
	}
	$once = 0;
}
print $o "\@\@vmab done\n";
EOS
chmod 0755, $fake;
local $VMAB::Qemu::QEMU = $fake;
local $ENV{RUNS} = "$dir/runs";
my $out = "$dir/out";
my $ctx = VMAB::Driver::context($top, { out => $out, list => 'run.list', 'timeout-factor' => 1, rerun => 0 });
make_path("$out/v", "$out/build/v");
spew("$out/v/bzImage", 'kernel');
spew("$dir/initrd", 'initrd');
spew("$out/build/v/.config", "CONFIG_SWAP=y\nCONFIG_LRU_GEN=y\nCONFIG_MEMCG=y\n");
# Their tests declare no needs: what a result is expected to be does not matter
# here, only that both ways judge the same results alike.
my $known = load_known("$top/matrix/known.tsv", "$top/suite");
my @modes = qw(swap-classic swap-mglru noswap-classic);
my %boot = (phases => { build => 5 }, release => '6.1.192+', accel => 'tcg',
	    initrd => "$dir/initrd", lists => '/suite/run.list', qemu => '7.2', known => $known);
sub runs { my @r = split /\n/, slurp("$dir/runs"); unlink "$dir/runs"; @r }

my $whole = boot_one($ctx, %boot, variant => { name => 'v', modes => \@modes, timeout => 60 });
my $whole_logs = slurp("$ctx->{logs}/v/results.log");
is(scalar runs(), 1, 'one guest: one QEMU');
my $split_v = { name => 'v', modes => \@modes, timeout => 60, guests => [['swap-classic'], [qw(swap-mglru noswap-classic)]] };
my $split = boot_one($ctx, %boot, variant => $split_v);
my @r = runs();
is(scalar @r, 2, 'two guests: two QEMUs');
like($r[0], qr/vmab_modes=swap-classic vmab_list=\S+ vmab_cpus=2$/, '... the first with its modes and the once programs');
like($r[1], qr/vmab_modes=swap-mglru,noswap-classic .* vmab_once=0$/, '... the second with vmab_once=0');
ok(-s "$ctx->{logs}/v/part-$_/results.log" && -s "$ctx->{logs}/v/part-$_/console.log", "part $_: its own logs")
	for 1, 2;
ok(-e "$ctx->{logs}/v/part-1/swap.img" && -e "$ctx->{logs}/v/part-2/swap.img", '... and its own swap image');
is(scalar(grep { $_->{test} =~ /^fuzz_test\// } @{$split->{results}}), 1, 'the once program ran once in all');
is_deeply(parse_results(slurp("$ctx->{logs}/v/results.log")), parse_results($whole_logs),
	  'the merged results log parses as the one guest\'s');
sub same { my ($x) = @_; my %c = %$x; delete @c{qw(run_at phases)}; \%c }
is_deeply(same($split), same($whole), 'the record: the same as one guest\'s (but its time)') or diag explain $split;
is_deeply([sort keys %{$split->{phases}}], [sort keys %{$whole->{phases}}], '... the same phases');
my $kept = 0;
$kept += (split ' ', slurp("$ctx->{logs}/v/part-$_/boot.key"))[1] for 1, 2;
ok(abs($split->{phases}{boot} - $kept) < 0.2, "... boot: the parts' seconds summed ($split->{phases}{boot} s)");
is($split->{outcome}, 'PASS', '... PASS');

# The record's shape in matrix.json and the report: as for a one-guest variant.
sub shape {
	my ($x) = @_;
	return ref $x eq 'HASH' ? { map { $_ => shape($x->{$_}) } keys %$x }
	     : ref $x eq 'ARRAY' ? [@$x ? shape($x->[0]) : ()] : 'scalar';
}
my $fixture = VMAB::Results::load_matrix("$FindBin::Bin/fixtures/report-matrix.json");
my ($fx_name) = grep { $fixture->{variants}{$_}{outcome} eq 'PASS' } sort keys %{$fixture->{variants}};
is_deeply([sort keys %$split], [sort grep { $_ ne 'provenance' } keys %{$fixture->{variants}{$fx_name}}],
	  "the record's fields: those of the fixture's $fx_name (provenance added by boot_stage)");
is_deeply(shape($split), shape($whole), "... the record's shape: one guest's");
my %report;
for ([whole => $whole], [split => $split]) {
	my $m = { %$fixture, variants => { v => { %{$_->[1]}, phases => { build => 5, boot => 1 } } } };
	write_report($m, "$dir/report-$_->[0]", undef);
	$report{$_->[0]} = slurp("$dir/report-$_->[0]/report.md");
}
is($report{split}, $report{whole}, 'the report: the same text for both');

# Reuse on each part's key.
$split = boot_one($ctx, %boot, variant => $split_v);
is_deeply([scalar runs(), $split->{phases}{boot_reused}], [0, 1], 'the same parts again: both reused, no QEMU');
ok(!-e "$ctx->{logs}/v/boot.key", '... the merged folder keeps no key of its own');
$split = boot_one($ctx, %boot, variant => { %$split_v, guests => [[qw(swap-classic swap-mglru)], ['noswap-classic']] });
is(scalar runs(), 2, 'another split: new command lines, both parts booted again');

# A part that stops fails the variant, naming its logs.
{
	local $ENV{CUT} = 'noswap-classic';
	my $x = boot_one({ %$ctx, opt => { %{$ctx->{opt}}, rerun => 1 } }, %boot, variant => $split_v);
	is($x->{outcome}, 'TIMEOUT', 'a part that stopped: the variant TIMEOUT');
	like($x->{why}[0], qr{^v guest 2 of 2 \(swap-mglru,noswap-classic\): TIMEOUT; its logs: \S+/part-2/console\.log},
	     '... its first why names the part and its logs') or diag explain $x->{why};
	is(scalar(grep { /^v guest 1/ } @{$x->{why}}), 0, '... the part that finished is not named');
	ok(!-e "$ctx->{logs}/v/part-1/boot.key", '... and no part is kept for reuse');
	runs();
}

# vmab judge reads the merge as it reads one guest's logs.
VMAB::Results::save_matrix($ctx->{json_file}, { variants => { v => $split } });
VMAB::Driver::main('judge', '--out', $out);
is(VMAB::Results::load_matrix($ctx->{json_file})->{variants}{v}{outcome}, 'TIMEOUT',
   'vmab judge: the merged logs judged again, the same verdict');
done_testing;
