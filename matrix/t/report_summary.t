# The report's first screen (what a reader wants first): the semantics table, the questions
# of 2014 answered in a line each, the headline figures and the plot, all
# from matrix.json; what the run lacks is said to be not measured.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use VMAB::Report::Summary;
use VMAB::Report::Scenarios;
use VMAB::Report::After;

sub datum {
	my (%o) = @_;
	return { prog => 'scenario_test', kind => 'scenario', lost_nonvolatile_bytes => 0, pages_garbage => 0, %o };
}

my %rec = (scenario => 'memcg_reclaim', pressure => 'memcg_reclaim', pages_marked => 2048);
my @a_swap = (
	datum(%rec, design => 'vrange', pages_discarded => 2048, detect => 'purged_flag', read_returns => 'sigbus',
	      kernel_read_into => 'efault', counter_discarded => 2048, memcg_counter_discarded => -1,
	      memcg_anon_delta_kb => -8192, first_pass_discarded => 1600, first_pass_keep_swapped_kb => 1200),
	datum(scenario => 'no_pressure', design => 'vrange', pages_marked => 2048, pages_discarded => 0,
	      ns_mark_per_mib => 150_000, ns_take_back_per_mib => 200_000),
	datum(scenario => 'write_after_mark', design => 'vrange', pages_marked => 512, pages_discarded => 512,
	      detect => 'purged_flag', read_returns => 'sigbus', kernel_read_into => 'efault',
	      written_pages => 256, written_kept => 0),
	datum(scenario => 'image_cache', design => 'vrange', detect => 'purged_flag', cache_objects => 256,
	      cache_object_kb => 32, cache_regenerated => 204, cache_wrong => 0),
);
my @b_swap = (
	datum(%rec, design => 'madv_free', pages_discarded => 2048, detect => 'zero_page', read_returns => 'zero',
	      kernel_read_into => 'ok', counter_discarded => 2048, memcg_counter_discarded => 2048,
	      memcg_anon_delta_kb => -8192, first_pass_discarded => 2048, first_pass_keep_swapped_kb => 0),
	datum(scenario => 'no_pressure', design => 'madv_free', pages_marked => 2048, pages_discarded => 0,
	      ns_mark_per_mib => 180_000, ns_take_back_per_mib => 40_000, memcg_lazyfree_delta_kb => 8160),
	datum(scenario => 'write_after_mark', design => 'madv_free', pages_marked => 512, pages_discarded => 256,
	      detect => 'zero_page', read_returns => 'zero', kernel_read_into => 'ok',
	      written_pages => 256, written_kept => 256),
);
my @noswap = (
	datum(%rec, design => 'vrange', pages_discarded => 2048, detect => 'purged_flag', read_returns => 'sigbus',
	      kernel_read_into => 'efault', counter_discarded => 2048, memcg_counter_discarded => -1),
	datum(%rec, design => 'madv_free', pages_discarded => 0, counter_discarded => 0, memcg_counter_discarded => 0),
);
my $m = { accelerator => 'tcg', variants => { both => { modes => {
	'swap-classic' => { data => [@a_swap, @b_swap] },
	'noswap-classic' => { data => [@noswap] },
} } } };

my %sem = map { $_->{aspect} => $_ } VMAB::Report::Summary::semantics($m);
is_deeply([map { $_->[0] } @VMAB::Report::Summary::SEMANTICS],
	  ['How loss is signalled', 'Access to lost memory while marked', 'Cost of mark and unmark',
	   'What reclaim takes first', 'Without swap', 'Transparent huge pages', 'Memory cgroup accounting',
	   'A write after marking'], 'the semantics table has a row for each point the designs differ on, and a write after marking');
is_deeply([@{$sem{'How loss is signalled'}}{qw(vrange_measured madv_free_measured)}],
	  ['detected by purged_flag ×3', 'detected by zero_page ×2'], 'how loss was detected, counted from the data');
is_deeply([@{$sem{'A write after marking'}}{qw(vrange_measured madv_free_measured)}],
	  ['0 of 256 written pages kept (median of 1 runs)', '256 of 256 written pages kept (median of 1 runs)'],
	  'a write after marking, from the data');
is_deeply([@{$sem{'Transparent huge pages'}}{qw(vrange_measured madv_free_measured)}],
	  ['not measured in this run', 'not measured in this run'], 'a row the run has no figure for says so');
is($sem{'Cost of mark and unmark'}{question}, 6, 'a row whose figures a question gives points at it');
for my $r (values %sem) {
	next unless $r->{question};
	is((VMAB::Report::Scenarios::answers($m))[$r->{question} - 1]{n}, $r->{question}, "question $r->{question} exists");
}

is_deeply([VMAB::Report::Scenarios::answers($m)], [
	{ n => 1, key => 'accounting', title => 'Page accounting',
	  question => 'Are discarded pages counted, and does the memory go back to the cgroup?',
	  vrange => '`pgvrange_purged` = pages lost in 2 of 2 runs; memory.stat has no counter',
	  madv_free => '`pglazyfreed` = pages lost in 2 of 2 runs; memory.stat equal in 2 of 2; its `lazyfree` rose 8160 kB on marking 8192 kB' },
	{ n => 2, key => 'lru', title => 'LRU placement and aging',
	  question => 'Where do marked pages sit, and does reclaim take them before other memory?',
	  vrange => 'reclaim of the marked size took 1600 of 2048 marked pages, swapped 1200 kB unmarked (median, 1 runs)',
	  madv_free => 'reclaim of the marked size took 2048 of 2048 marked pages, swapped 0 kB unmarked (median, 1 runs)' },
	{ n => 3, key => 'sigbus', title => 'SIGBUS or zero-fill',
	  question => 'What does user space see when it touches a discarded page, and can it tell?',
	  vrange => 'a read of a lost page while marked gave sigbus ×3; garbage pages 0',
	  madv_free => 'a read of a lost page while marked gave zero ×2; garbage pages 0' },
	{ n => 4, key => 'kernel', title => 'Kernel access to purged memory',
	  question => 'What do read(2) into and write(2) from a discarded, still-marked page do?',
	  vrange => 'read(2) into a lost page: efault ×3', madv_free => 'read(2) into a lost page: ok ×2' },
	{ n => 5, key => 'swapless', title => 'Purging without swap',
	  question => 'v11 purged only with swap; does it work with no swap device and with `CONFIG_SWAP=n`?',
	  vrange => 'discarded without swap in 1 of 1 pressure runs',
	  madv_free => 'discarded without swap in 0 of 1 pressure runs' },
	{ n => 6, key => 'cost', title => 'Cost of marking',
	  question => 'What does it cost to mark memory, to use it while marked and to take it back?',
	  vrange => 'mark 150 µs/MiB, take back 200 µs/MiB (median, 1 runs)',
	  madv_free => 'mark 180 µs/MiB, take back 40 µs/MiB (median, 1 runs)' },
], 'each question answered in one line per design, from the data');

is_deeply([VMAB::Report::Summary::figures($m)], [
	{ figure => 'Reclaim of exactly the marked size, swap on: marked pages taken (goal: at least 95%)',
	  vrange => '78% (median of 1 runs); at least 95% in 0 of 1', madv_free => '100% (median of 1 runs); at least 95% in 1 of 1' },
	{ figure => 'Image cache after pressure: objects regenerated, objects wrong',
	  vrange => '204 of 256 objects of 32 KiB regenerated (median of 1 runs); 0 came back wrong',
	  madv_free => 'not measured in this run' },
	{ figure => 'Allocator churn, records/s against never giving memory back (goal: at least 90%)',
	  vrange => 'not measured in this run', madv_free => 'not measured in this run' },
	{ figure => 'Mark cost against range size (goal for vrange: within 2x)',
	  vrange => 'not measured in this run', madv_free => 'not measured in this run' },
	{ figure => 'Unmark cost against range size, nothing purged, after a purge of the range (goal for vrange: within 2x)',
	  vrange => 'not measured in this run', madv_free => 'no unmark: a write to a page cancels its discard' },
	{ figure => 'An OOM without swap while another process holds marked memory (goal: within 1.25x of nothing marked)',
	  vrange => 'not measured in this run', madv_free => 'not measured in this run' },
], 'headline figures from the data; benchmarks absent from this run are not measured');

# With benchmark figures, the headline follows them.
{
	my %mm = %$m;
	my $bench = sub { my ($design, $threads, $rps, %x) = @_;
		{ kind => 'bench', bench => 'churn', design => $design, threads => $threads, records_per_s => $rps, %x } };
	my $oom = sub { my ($design, $r) = @_;
		{ kind => 'bench', bench => 'oom', design => $design, ratio_to_control => $r } };
	my $mark = sub { my ($design, $op, $size, $ns) = @_;
		{ kind => 'bench', bench => 'mark', design => $design, op => $op, size => $size, ns_median => $ns } };
	$mm{variants} = { both => { modes => { 'swap-classic' => { data => [
		$bench->('keep', 1, 1000), $bench->('madv_free', 1, 950), $bench->('vrange', 1, 800),
		$bench->('vrange_own_vma', 1, 970, ratio_to_keep => 0.99),
		$mark->('vrange', 'volatile', 4096, 1000), $mark->('vrange', 'volatile', 1 << 30, 1500),
		$mark->('madv_free', 'madv_free', 4096, 1000), $mark->('madv_free', 'madv_free', 1 << 30, 9e6),
		$oom->('vrange', 1.03), $oom->('madv_free', 0.98),
	] }, 'noswap-classic' => { data => [ $oom->('vrange', 1.5), $oom->('vrange', undef), $oom->('none', undef) ] } } } };
	my @f = VMAB::Report::Summary::figures(\%mm);
	is_deeply([@{$f[2]}{qw(vrange madv_free)}], ['80% of keep (median of 1 runs); at least 90% in 0 of 1; ' .
		'with a VMA per chunk (no split): 99% of keep (median of 1 runs); at least 90% in 1 of 1',
		'95% of keep (median of 1 runs); at least 90% in 1 of 1'], 'churn against keep, vrange also with a VMA per chunk');
	is_deeply([@{$f[3]}{qw(vrange madv_free)}], ['1.50x at 1 GiB vs 4 KiB (median of 1 variants)',
		'9000.00x at 1 GiB vs 4 KiB (median of 1 variants)'], 'mark cost growth');
	is_deeply([@{$f[5]}{qw(vrange madv_free)}], ['1.03x the time with nothing marked (median of 2 runs); within 1.25x in 1 of 2',
		'0.98x the time with nothing marked (median of 1 runs); within 1.25x in 1 of 1'], 'OOM next to marked memory');
	push @{$mm{variants}{both}{modes}{'swap-classic'}{data}},
		$mark->('vrange', 'getppid', 4096, 100), $mark->('vrange', 'getppid', 1 << 30, 1000);
	@f = VMAB::Report::Summary::figures(\%mm);
	is($f[3]{vrange}, '1.50x at 1 GiB vs 4 KiB (median of 1 variants); 0.15x once the getppid() control ' .
		'at the same point is divided out (median of 1)', 'mark cost growth, also against the null call');
	is($f[4]{vrange}, 'not measured in this run', 'no unmark after a purge timed: not measured');
	# The sweep of the unmark after a purge stops at 64 MiB: the control over those sizes.
	push @{$mm{variants}{both}{modes}{'swap-classic'}{data}},
		$mark->('vrange', 'nonvolatile_after_purge', 4096, 2000), $mark->('vrange', 'nonvolatile_after_purge', 1 << 26, 2400),
		$mark->('vrange', 'getppid', 1 << 26, 400);
	@f = VMAB::Report::Summary::figures(\%mm);
	is($f[4]{vrange}, '1.20x at 64 MiB vs 4 KiB (median of 1 variants); 0.30x once the getppid() control ' .
		'at the same point is divided out (median of 1)', 'unmark after a purge, against the control over its sizes');
	# A second variant whose sweep stopped earlier: the sizes are said as they are
	# (median() of two is the lower one).
	$mm{variants}{debug} = { modes => { 'swap-classic' => { data => [
		$mark->('vrange', 'nonvolatile_after_purge', 4096, 2000), $mark->('vrange', 'nonvolatile_after_purge', 1 << 22, 2200),
		$mark->('vrange', 'getppid', 4096, 100), $mark->('vrange', 'getppid', 1 << 22, 200) ] } } };
	@f = VMAB::Report::Summary::figures(\%mm);
	is($f[4]{vrange}, '1.10x from the smallest size to each variant\'s largest (4 MiB, 64 MiB) (median of 2 variants); ' .
		'0.30x once the getppid() control at the same point is divided out (median of 2)',
		'variants whose sweeps end at different sizes');
}

is_deeply([VMAB::Report::Goals::lost_share([VMAB::Report::Data::all_data($m)], ['vrange', 'madv_free'],
		map { $_->[0] } @VMAB::Report::Scenarios::SCENARIOS)], [['memcg_reclaim', 100, 0], ['write_after_mark', 100, 50]],
	  'share of the marked pages lost, median (the lower one of two) per scenario and design');

# The whole summary: one plot, drawn by gnuplot into the report folder.
SKIP: {
	skip 'gnuplot not installed', 3 unless grep { -x "$_/gnuplot" } split /:/, $ENV{PATH};
	my $dir = tempdir(CLEANUP => 1);
	my $md = VMAB::Report::Summary::section($m, $dir);
	is_deeply([$md =~ /^### (.*)$/mg], ['What each design gives a user', 'The questions of 2014, answered by this run',
		'Headline figures'], 'the summary\'s parts, in order');
	like($md, qr/^!\[[^\]]+\]\(summary-lost-share\.svg\)$/m, 'one plot');
	ok(-s "$dir/summary-lost-share.svg", 'the plot was drawn');
}
{
	local $VMAB::Report::Plot::GNUPLOT = '/nonexistent/gnuplot';
	my $dir = tempdir(CLEANUP => 1);
	ok(!eval { VMAB::Report::Summary::section($m, $dir); 1 }, 'a plot that cannot be drawn fails the summary');
	like($@, qr/^plot summary-lost-share: \/nonexistent\/gnuplot not found$/, '... saying which plot and why');
}

# What came after: every later design named, each with a source.
is_deeply([map { $_->{name} } VMAB::Report::After::designs()], [
	'Linux `MADV_FREE`, as merged', '`MADV_COLD`, `MADV_PAGEOUT`', '`MAP_DROPPABLE`', 'Darwin purgeable memory',
	'Windows `OfferVirtualMemory` / `ReclaimVirtualMemory`', 'Android ashmem pin/unpin'], 'the later designs');
is_deeply([grep { !@{$_->{source}} || grep { $_->[1] !~ m{^https://} } @{$_->{source}} } VMAB::Report::After::designs()],
	  [], 'each cites at least one https source');
{
	my $cited = VMAB::Report::After::section($m);
	like($cited, qr/^\| `MAP_DROPPABLE` \|/m, 'without C\'s figures, MAP_DROPPABLE is cited');
	my %mm = (%$m, variants => { %{$m->{variants}}, droppable => { modes => { 'swap-classic' => { data => [
		{ prog => 'reclaim_test', kind => 'reclaim_order', design => 'droppable', thp => 'off', marked_pages => 2048,
		  marked_taken => 2048, unmarked_pages => 2048, unmarked_swapped => 2051 } ] } } } });
	my $measured = VMAB::Report::After::section(\%mm);
	unlike($measured, qr/^\| `MAP_DROPPABLE` \|/m, 'with them, it leaves the cited table');
	like($measured, qr/^`MAP_DROPPABLE` \(Linux 6\.11 \(2024\), 64-bit\) is measured here, as design C: .*\[commit 9651fcedf7b9 /m,
	     '... for a line that says it is measured, with its source');
	like($measured, qr/^The rest are cited, /m, '... the rest cited');
	is(scalar(() = $measured =~ /^\| (?:Darwin|Windows|Android ashmem)/mg), 3, '... Darwin, Windows and ashmem among them');
	my @f = VMAB::Report::Summary::figures(\%mm);
	is_deeply([sort keys %{$f[0]}], [qw(droppable figure madv_free vrange)], 'the headline figures get a column for C');
	is($f[0]{droppable}, '100% (median of 1 runs); at least 95% in 1 of 1 (`suite/reclaim_test.c`, THP off)',
	   '... from the same goal code as A and B, on its reclaim_test records (no variant of scenario_test)');
	push @{$mm{variants}{droppable}{modes}{'swap-classic'}{data}}, map { { prog => 'droppable_test', kind => 'droppable',
		design => 'droppable', pages => 1024, pages_discarded => 1024, %$_ } } { scenario => 'thp', thp_kb => 4096 },
		{ scenario => 'dirty_dropped_not_swapped' }, { scenario => 'memcg_accounting', memcg_counter_discarded => 0,
		  memcg_anon_delta_kb => 4096, memcg_file_lru_delta_kb => 4064, memcg_anon_lru_delta_kb => 16 };
	my %csem = map { $_->{aspect} => $_->{droppable_measured} } VMAB::Report::Summary::semantics(\%mm);
	is_deeply([@csem{'How loss is signalled', 'Transparent huge pages', 'A write after marking'}],
		  ['not measured in this run', '1024 of 1024 droppable pages of THP (4096 kB mapped huge) lost to `MADV_PAGEOUT` (median of 1 runs)',
		   '0 of 1024 written pages kept (median of 1 runs)'], 'C seen: from droppable_test where it has the figure');
	is_deeply([map { $_->{droppable} } VMAB::Report::Scenarios::answers(\%mm)], [
		'no counter moved (memcg_counter_discarded, memory.stat `pglazyfreed`: 0 in 1 of 1 runs) while memory.reclaim ' .
		'dropped 1024 of 1024 pages; memory.stat on writing them: anon +4096 kB, file LRU +4064 kB, anon LRU +16 kB (median, 1 runs)',
		'reclaim of the marked size took 2048 of 2048 marked pages, swapped 8204 kB unmarked (median, 1 runs of ' .
		'`suite/reclaim_test.c`, THP off; reclaim counts no page it drops, so memory.reclaim of that size goes on to swap)',
		('not measured in this run') x 3, VMAB::Designs::design('droppable')->{does_not_apply}{cost}],
		'C answers: accounting and LRU from its tests; without swap: no run here; cost: does not apply (VMAB::Designs)');
	my $md = VMAB::Report::Summary::section(\%mm, tempdir(CLEANUP => 1));
	like($md, qr/^\| figure \| A: vrange \| B: MADV_FREE \| C: MAP_DROPPABLE \|$/m, '... and the summary renders it');
	unlike($md, qr/C: MAP_DROPPABLE \(`CONFIG_MAP_DROPPABLE`\): not measured/, '... not said to be unmeasured');
	like(VMAB::Report::Summary::section($m, tempdir(CLEANUP => 1)),
	     qr/^C: MAP_DROPPABLE \(`CONFIG_MAP_DROPPABLE`\): not measured in this run/m, 'without its figures: not measured');
}
done_testing;
