# The scenario section of the report: side-by-side tables of observed
# values per variant and mode, and the reviewers' questions answered from
# the figures (never from numbers written into the module).
use strict;
use warnings;
use Test::More;
use VMAB::Report::Scenarios;
use VMAB::Report::Html qw(md_to_html);

sub datum {
	my (%o) = @_;
	return { prog => 'scenario_test', kind => 'scenario', lost_nonvolatile_bytes => 0,
		 pages_garbage => 0, %o };
}

my %reclaim_a = (scenario => 'memcg_reclaim', design => 'vrange', pressure => 'memcg_reclaim',
	pages_marked => 2048, pages_discarded => 2040, detect => 'purged_flag', read_returns => 'sigbus',
	purged => 1, sigbus_addr_code_right => 1, kernel_read_into => 'efault', kernel_write_from => 'efault',
	counter_discarded => 2040, memcg_counter_discarded => 2040, rss_kb_before => 8192, rss_kb_after => 32,
	memcg_anon_delta_kb => -8160, memcg_file_delta_kb => 0,
	first_pass_discarded => 1777, first_pass_keep_swapped_kb => 12);
my %reclaim_b = (scenario => 'memcg_reclaim', design => 'madv_free', pressure => 'memcg_reclaim',
	pages_marked => 2048, pages_discarded => 2048, detect => 'zero_page', read_returns => 'zero',
	kernel_read_into => 'ok', kernel_write_from => 'ok', counter_discarded => 2048,
	rss_kb_before => 8192, rss_kb_after => 0, memcg_anon_delta_kb => -8192, memcg_file_delta_kb => 0,
	first_pass_discarded => 2048, first_pass_keep_swapped_kb => 0);
my %np_a = (scenario => 'no_pressure', design => 'vrange', pages_marked => 2048, pages_intact => 2048,
	pages_discarded => 0, purged => 0, chunk_kb => 64, ns_mark_per_mib => 31_000,
	ns_read_per_mib => 40_000, ns_take_back_per_mib => 29_000, ns_mark_per_call => 1_900,
	mark_delta_kb_inactive_anon => 0, mark_delta_kb_inactive_file => 0);
my %np_b = (scenario => 'no_pressure', design => 'madv_free', pages_marked => 2048, pages_intact => 2048,
	pages_discarded => 0, chunk_kb => 64, ns_mark_per_mib => 492_218,
	ns_read_per_mib => 39_064, ns_take_back_per_mib => 132_820, ns_mark_per_call => 30_763,
	mark_delta_kb_inactive_anon => -8104, mark_delta_kb_inactive_file => 8160,
	memcg_lazyfree_delta_kb => 8160, counter_marked => 2048, nr_lazyfree_delta => 2048);
my %cache_b = (scenario => 'image_cache', design => 'madv_free', detect => 'canary',
	cache_objects => 256, cache_regenerated => 201, cache_wrong => 0, objects_paged_out => 64,
	ns_mark => 8_000_500, ns_fetch_all => 220_013_750);

my $m = {
	accelerator => 'tcg',
	variants => {
		both => { results => [
			{ mode => 'swap-classic', test => 'scenario_test/scn.vrange.memcg_reclaim', status => 'pass' },
			{ mode => 'swap-classic', test => 'scenario_test/scn.madv_free.memcg_reclaim', status => 'pass' },
			{ mode => 'swap-classic', test => 'scenario_test/scn.vrange.image_cache', status => 'fail' },
		], modes => {
			'swap-classic' => {
				data => [ datum(%reclaim_a), datum(%reclaim_b), datum(%np_a), datum(%np_b),
					  datum(%cache_b),
					  { prog => 'bench_x', kind => 'bench', scenario => 'memcg_reclaim' },
					  { prog => 'reclaim_test', kind => 'reclaim_order', design => 'vrange',
					    marked_pages => 2048, marked_taken => 2048, unmarked_pages => 2048,
					    unmarked_swapped => 0 },
					  { prog => 'reclaim_test', kind => 'reclaim_order', design => 'vrange', thp => 'always',
					    marked_pages => 2048, marked_taken => 2047, unmarked_pages => 2048,
					    unmarked_swapped => 2052, memcg_reclaim_rc => 0 },
					  { prog => 'reclaim_test', kind => 'noswap_oom', pgscan_anon_without_volatile => 0,
					    pgscan_anon_with_volatile => 0 } ],
			},
			'noswap-mglru' => {
				data => [ datum(%reclaim_a, pages_discarded => 1500, counter_discarded => 1400),
					  datum(%reclaim_b, lost_nonvolatile_bytes => 4096),
					  datum(%np_b, ns_mark_per_mib => 600_000) ],
			},
		} },
		'madv-free' => { results => [
			{ mode => 'noswap-classic', test => 'scenario_test/scn.vrange.memcg_reclaim',
			  status => 'skip', reason => 'CONFIG_VRANGE=n' },
		], modes => {
			'noswap-classic' => {
				data => [ datum(%reclaim_b) ],
			},
		} },
		none => { results => [
			{ mode => 'swap-classic', test => 'scenario_test/scn.vrange.memcg_reclaim',
			  status => 'skip', reason => 'CONFIG_VRANGE=n' },
		], modes => {
			'swap-classic' => { data => [] },
		} },
	},
};

my $md = VMAB::Report::Scenarios::section($m, '/nonexistent');
my $app = VMAB::Report::Scenarios::appendix($m);

# (a) the side-by-side tables, in the appendix
like($app, qr/^#### `memcg_reclaim`$/m, 'a heading per scenario');
like($app, qr/^\| variant \/ mode \| A: vrange \| B: MADV_FREE \|$/m, 'columns A and B');
like($app, qr/^\| both \/ swap-classic \| lost 2040\/2048; detect purged_flag; read sigbus;.*\| lost 2048\/2048; detect zero_page; read zero;/m,
     'observed values of both designs in one row');
like($app, qr/^\| madv-free \/ noswap-classic \| skip: CONFIG_VRANGE=n \| lost 2048\/2048/m,
     'a missing design shows its skip reason');
like($app, qr/non-volatile bytes LOST 4096/, 'lost non-volatile memory stands out');
like($app, qr/No figures from none \(swap-classic\)/, 'variants without figures are listed, not tabled');
like($app, qr/^\| both \/ swap-classic \| \*\*FAIL\*\* \(no figures\) \| regenerated 201\/256; wrong 0; detect canary/m,
     'a failed test without figures, and the cache cell');
my ($first_row) = $app =~ /^#### `memcg_reclaim`.*?^(\| both \/ \S+)/ms;
is($first_row, '| both / swap-classic', 'modes in the canonical order (swap before noswap)');
unlike($md . $app, qr/bench_x|kind.*bench/, 'other kinds of figures are ignored');
unlike($md, qr/^#+ `memcg_reclaim`$/m, 'the evidence section has no per-cell tables');
{
	my %mm = (variants => { v => { modes => {
		'swap-classic' => { data => [ datum(%reclaim_b) ] },
		'noswap-classic' => { data => [ datum(%reclaim_b) ] },
		'noswap-mglru' => { data => [ datum(%reclaim_b, pages_discarded => 7) ] } } } });
	my $s = VMAB::Report::Scenarios::appendix(\%mm);
	like($s, qr/^\| v \/ swap-classic, noswap-classic \| - \| lost 2048\/2048/m, 'modes that saw the same share a row');
	like($s, qr/^\| v \/ noswap-mglru \| - \| lost 7\/2048/m, 'a mode that saw something else has its own');
}

# (b) the questions, answered from the figures
like($md, qr/^### Question 1: Page accounting$/m, 'page accounting question');
like($md, qr/`pgvrange_purged` in \/proc\/vmstat equalled the pages found lost in 1 run\(s\), differed in 1.*in memory.stat it equalled them in 1, differed in 1/,
     'counter agreement counted from the data');
like($md, qr/^### Question 2: LRU placement and aging\n.*inactive_file \+8160 kB/ms, 'LRU placement from memory.stat deltas');
like($md, qr/`pglazyfree` rose by 2048 pages; the `nr_lazyfree` gauge by 2048 pages/, 'the gauge next to the counter');
like($md, qr/took 1777 of 2048 marked pages while swapping out 12 kB/, 'first reclaim pass');
like($md, qr/^### Question 3: SIGBUS or zero-fill\n.*A: vrange: in 2 of 2 pressure runs pages were lost; a read while still marked returned sigbus ×2/ms,
     'SIGBUS vs zero-fill');
like($md, qr/BUS_ADRERR` in 2 of 2/, 'si_addr and si_code checked');
like($md, qr/read\(2\) into it: efault ×2; write\(2\) from it: efault ×2/, 'kernel access to purged memory');
like($app, qr/^\| both\/noswap-mglru \| A: vrange \| 1500\/2048 \| - \| - \|$/m, 'swapless purging table, in the appendix');
like($md, qr/B: MADV_FREE, in calls of 64 KiB: mark 492 µs \(median; 492 µs to 600 µs, 2 runs\) per MiB/,
     'cost of marking, median and range from the data');
like($md, qr/Measured under TCG/, 'the accelerator is named');
like(VMAB::Report::Scenarios::headline(VMAB::Report::Goals::safety([VMAB::Report::Scenarios::all_data($m)])), qr/^\*\*Over \d+ scenario runs: 4096 bytes of non-volatile memory lost/m, 'a headline that shouts on loss');

# Changing a figure changes the answer: nothing is written into the module.
$m->{variants}{both}{modes}{'swap-classic'}{data}[1]{read_returns} = 'data';
like(VMAB::Report::Scenarios::section($m, '/x'), qr/B: MADV_FREE: in 3 of 3 pressure runs pages were lost; a read while still marked returned data ×1, zero ×2/,
     'answers follow the data');

# Renders with the report's HTML subset, and copes with no figures at all.
like(md_to_html($app, 't'), qr/<table>/, 'tables survive the HTML conversion');
like(VMAB::Report::Scenarios::section({ variants => {} }, '/x'), qr/No scenario figures/, 'an empty run says so');

# What reclaim takes first (suite/reclaim_test.c), with the figures from
# before in docs/design.md.
{
	my $lru = VMAB::Report::Scenarios::q_lru([], $m);
	like($lru, qr/^- .*2048 pages in use and 2048 marked pages written after them, .*took 2048 marked pages, swapped out 0 pages in use \(both\/swap-classic\)\.$/m,
	     'reclaim order: taken and swapped, with where');
	like($lru, qr/^- .*transparent huge pages `always` \(plain mappings; the goal asserted for A only\): took 2047 marked pages, swapped out 2052 pages in use, `memory.reclaim` returned 0 \(both\/swap-classic\)\.$/m,
	     '... and with THP always, a line of its own (not mixed into the THP-off figures)');
	unlike($lru, qr/`madvise`/, '... none for a THP setting that was not measured');
	like($lru, qr/^What the reclaim-order test saw before old vrange patches 14 and 15 and madv-free patch 5 \(now vrange 6\/12 and madv-free 3\/4\): `docs\/design\.md`/m,
	     '... and where to read what it was before');
	like($lru, qr/^- .*an OOM in a cgroup without swap .*`pgscan_anon` moved by 0 without and 0 with volatile memory elsewhere \(how quickly the kill comes: the benchmarks, "An OOM next to marked memory"; both\/swap-classic\)\.$/m,
	     'OOM without swap: scans side by side, the times left to the benchmark');
	unlike($lru, qr/52,488/, '... which the report code no longer holds');
	unlike($lru, qr/109 to 234 ms/, '... the OOM times before are the benchmark section\'s');
	is(VMAB::Report::Scenarios::q_lru([], { variants => {} }), '', 'no figures: nothing');
}

done_testing;
