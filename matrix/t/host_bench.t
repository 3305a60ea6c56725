# make host-bench (VMAB::HostBench): which programs run on the host and with
# what arguments, what the host tells them about itself, and the record the
# report reads (out/results/host-bench.json), from a program's output.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use lib "$FindBin::Bin/../lib";
use VMAB::File qw(spew);
use VMAB::HostBench qw(host_plan host_env host_record);

my $s = tempdir(CLEANUP => 1);
spew("$s/bench.list", "# c\nbench_a -d 1\nbench_b -r 3\nonce bench_c -x\n");
spew("$s/host-bench.list", "# host\nbench_c\nbench_a\nbench_gone\nbench_b\n");
spew("$s/$_.c", '') for qw(bench_a bench_c);
my ($plan, $missing) = host_plan($s);
is_deeply($plan, [{ prog => 'bench_c', args => ['-x'] }, { prog => 'bench_a', args => ['-d', '1'] }],
	  'host-bench.list in its order, bench.list arguments');
is_deeply($missing, [qw(bench_gone bench_b)], 'a program without its source is skipped, named');

# The real lists: every program named there that exists runs nothing but
# its own memory (none of the cgroup users).
my ($real) = host_plan("$FindBin::Bin/../../suite");
ok(scalar(grep { $_->{prog} eq 'bench_churn' } @$real), 'bench_churn runs on the host');
# bench_discardable too: under make host-bench need_memcg() says no
# (VMAB_VARIANT=host; suite_lib.t's global.no_memcg_under_host_bench), so
# it presses with MADV_PAGEOUT and creates no cgroup.
ok(scalar(grep { $_->{prog} eq 'bench_discardable' } @$real), 'bench_discardable runs on the host');
ok(!grep({ $_->{prog} =~ /^bench_(mark|pressure|oom|jemalloc)$/ } @$real), 'no program that uses memory cgroups');

is_deeply(host_env(swaps => "Filename\tType\n", lru_gen => "0x0000\n"),
	  { VMAB_VARIANT => 'host', VMAB_MODE => 'host', VMAB_SWAP => 'off', VMAB_LRU => 'classic' },
	  'no swap, classic LRU');
is_deeply([@{host_env(swaps => "Filename\n/dev/vda partition 1 0 -2\n", lru_gen => "0x0007\n")}{qw(VMAB_SWAP VMAB_LRU)}],
	  [qw(on mglru)], 'a swap device, MGLRU');
is(host_env(swaps => '', lru_gen => undef)->{VMAB_LRU}, 'classic', 'no lru_gen file: classic');

my $out = <<'EOT';
TAP version 13
1..2
# @data {"kind":"bench","bench":"churn","design":"madv_free","threads":1,"ratio_to_dontneed":2.5,"ratio_to_keep":0.5}
ok 1 churn_madv_free_1t
ok 2 churn_vrange_1t # SKIP vrange() is not in this kernel (CONFIG_VRANGE=n)
# @data {"kind":"bench", broken
EOT
my $r = host_record(host => { host_kernel => '6.18.1', machine => 'x86_64', cpu => 'c', cores => 2, swap => 'off', lru => 'classic' },
		    generated => '2026-12-07T05:00:00Z',
		    runs => [{ prog => 'bench_churn', args => ['-d', '0.5'], rc => 0, seconds => 3.2, output => $out }]);
is($r->{schema_version}, 1, 'schema_version');
is($r->{host_kernel}, '6.18.1', 'the host kernel');
is_deeply($r->{programs}, [{ prog => 'bench_churn', args => '-d 0.5', rc => 0, seconds => 3.2, planned => 2, ran => 2, skipped => 1 }],
	  'the program, its plan and results');
is_deeply($r->{data}, [{ kind => 'bench', bench => 'churn', design => 'madv_free', threads => 1, ratio_to_dontneed => 2.5,
			 ratio_to_keep => 0.5, mode => 'host', prog => 'bench_churn' }], 'the @data record, mode "host"');
is_deeply($r->{tests}[1], { prog => 'bench_churn', name => 'churn_vrange_1t', result => 'skip',
			    reason => 'vrange() is not in this kernel (CONFIG_VRANGE=n)' }, 'an absent design: a skip');
is(scalar @{$r->{bad_data}}, 1, 'a malformed @data line is kept as bad_data, not dropped');
done_testing();
