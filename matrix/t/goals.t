# The report's analysis (VMAB::Report::Goals) on the fixture matrix.json
# (tools/make-report-fixture.pl): each goal as a plain structure, checked
# with is_deeply, not by the report's wording; and the one table of
# thresholds against the numbers the guest asserts and the contract states.
use strict;
use warnings;
use Test::More;
use FindBin;
use VMAB::File qw(slurp);
use VMAB::Results qw(load_matrix);
use VMAB::Report::Data qw(all_data columns);
use VMAB::Report::Goals qw(%THRESHOLD);
use VMAB::Designs;
use File::Temp qw(tempdir);

my $top = "$FindBin::Bin/../..";
my $m = load_matrix("$FindBin::Bin/fixtures/report-matrix.json");
my @data = all_data($m);

my $fp = VMAB::Report::Goals::first_pass(\@data, 'vrange');
is_deeply({ %$fp, runs => scalar @{$fp->{runs}} },
	  { marked => 2048, met => 2, n => 4, share => 0.90625, swapped_kb => 72, taken => 1856, threshold => 0.95,
	    runs => 4 }, 'reclaim of the marked size, A: the median share, taken, swapped, and the runs that met 95%');
is_deeply([map { [@$_{qw(variant mode taken share)}] } @{VMAB::Report::Goals::first_pass(\@data, 'madv_free')->{runs}}],
	  [['madv-free', 'swap-classic', 1931, 0.94287109375], ['madv-free', 'swap-mglru', 2038, 0.9951171875],
	   ['both', 'swap-classic', 1959, 0.95654296875], ['both', 'swap-mglru', 1887, 0.92138671875]],
	  '... B: the cells it came from, swap on only');
is(VMAB::Report::Goals::first_pass(\@data, 'droppable'), undef, '... C: no runs, no goal');

# Computed once per report: the summary's figure and the question's answer
# both read the analysis (a doctored one shows through in both).
my $an = VMAB::Report::Goals::analyse($m);
is_deeply($an->{first}, { vrange => $fp, madv_free => VMAB::Report::Goals::first_pass(\@data, 'madv_free') },
	  'analyse: reclaim of the marked size per column, once');
{
	require VMAB::Report::Summary;
	local $an->{first}{vrange} = { %$fp, share => 0.5, taken => 1024,
		runs => [{ variant => 'both', mode => 'swap-x', taken => 1024, marked => 2048, swapped_kb => 3, share => 0.5 }] };
	like((VMAB::Report::Summary::figures($m, $an))[0]{vrange}, qr/^50% \(median of 4 runs\)/, '... the summary reads it');
	like((VMAB::Report::Scenarios::answers($m, $an))[1]{vrange}, qr/took 1024 of 2048 marked pages/, '... and question 2');
	like(VMAB::Report::Scenarios::section($m, '/x', $an), qr/exactly the marked size: took 1024 of 2048 marked pages while swapping out 3 kB of the unmarked memory \(both\/swap-x\)/,
	     '... and its evidence, from the same cells');
}

# Design C is no variant of scenario_test: its figures are its own tests'
# (suite/reclaim_test.c, suite/droppable_test.c), read by the same rules.
{
	my $ro = sub { my ($thp, $taken, $sw) = @_; { prog => 'reclaim_test', kind => 'reclaim_order', design => 'droppable',
		thp => $thp, marked_pages => 2048, marked_taken => $taken, unmarked_pages => 2048, unmarked_swapped => $sw } };
	my $dr = sub { { prog => 'droppable_test', kind => 'droppable', design => 'droppable', @_ } };
	my @common = ($dr->(scenario => 'thp', pages => 1024, pages_discarded => 1024, thp_kb => 4096),
		$dr->(scenario => 'memcg_accounting', pages => 1024, pages_discarded => 1000, memcg_anon_delta_kb => 4096,
		      memcg_anon_lru_delta_kb => 16, memcg_file_lru_delta_kb => 4064, memcg_counter_discarded => 0));
	my $cm = { variants => { droppable => { modes => {
		'swap-classic' => { data => [$ro->('off', 2048, 2051), $ro->('always', 1900, 2051), @common,
			$dr->(scenario => 'dirty_dropped_not_swapped', pages => 1024, pages_discarded => 1024, pswpout => 2048)] },
		'swap-mglru' => { data => [$ro->('off', 1900, 2000), @common] },
		'noswap-classic' => { data => [$ro->('off', 2048, 0), @common,
			$dr->(scenario => 'dirty_dropped_not_swapped', pages => 1024, pages_discarded => 1020, pswpout => 0),
			$dr->(scenario => 'dirty_dropped_not_swapped', pages => 1024, pages_discarded => 0, pswpout => 0)] },
	} } } };
	my $fo = VMAB::Report::Goals::first_reclaim($cm, [all_data($cm)], 'droppable');
	is_deeply($fo, { threshold => 0.95, n => 2, share => 1900 / 2048, taken => 1900,
			 swapped_kb => 8000, marked => 2048, met => 1, source => 'suite/reclaim_test.c',
			 runs => [{ variant => 'droppable', mode => 'swap-classic', taken => 2048, marked => 2048, share => 1, swapped_kb => 8204 },
				  { variant => 'droppable', mode => 'swap-mglru', taken => 1900, marked => 2048, share => 1900 / 2048,
				    swapped_kb => 8000 }] },
		  'C: reclaim of the marked size from reclaim_test, THP off and swap on only, swapped pages as kB');
	is(VMAB::Report::Goals::first_reclaim($cm, [all_data($cm)], 'vrange'), undef, '... A still from scenario_test: none here');
	is_deeply(VMAB::Report::Goals::drop_thp($cm, 'droppable'), { dropped => 1024, pages => 1024, thp_kb => 4096, n => 3 },
		  'C: huge pages dropped by MADV_PAGEOUT');
	is_deeply(VMAB::Report::Goals::drop_write($cm, 'droppable'), { kept => 4, pages => 1024, n => 3 },
		  'C: written (dirty) pages kept, the median');
	is_deeply(VMAB::Report::Goals::drop_accounting($cm, 'droppable'),
		  { n => 3, still => 3, pages => 1024, dropped => 1000, anon_kb => 4096, file_lru_kb => 4064, anon_lru_kb => 16 },
		  'C: memory.stat on writing, and no counter for what reclaim dropped');
	is_deeply(VMAB::Report::Goals::drop_swapless($cm, 'droppable'), { runs => 2, purging => 1 },
		  'C: runs without swap, and those that dropped pages');
	is(VMAB::Report::Goals::drop_thp($cm, 'madv_free'), undef, '... none of another design');
}

# The scenarios' own figures, on a small hand-made matrix: counters against
# the pages found lost, runs without swap, the safety sums, the runs in
# which a design alone lost pages, and the median share lost.
{
	my $sc = sub { my ($sc, $dn, $lost, %o) = @_; { kind => 'scenario', scenario => $sc, design => $dn, pages_marked => 100,
		pages_discarded => $lost, %o } };
	my $hm = { variants => { both => { modes => {
		'swap-classic' => { data => [$sc->('memcg_reclaim', 'vrange', 100, counter_discarded => 100, memcg_counter_discarded => -1),
			$sc->('madv_pageout', 'madv_free', 50, counter_discarded => 40, memcg_counter_discarded => 50, pages_garbage => 2),
			$sc->('image_cache', 'vrange', 30, cache_wrong => 1), $sc->('thp', 'vrange', 0, detect => 'nothing')] },
		'noswap-classic' => { data => [$sc->('memcg_reclaim', 'vrange', 0, counter_discarded => 0),
			$sc->('memcg_limit', 'madv_free', 10, lost_nonvolatile_bytes => 4096), $sc->('madv_pageout', 'vrange', 20)] },
	} } } };
	my @hd = all_data($hm);
	my $ha = VMAB::Report::Goals::analyse($hm);
	is_deeply($ha->{accounting}, { vrange => { runs => 3, equal => 2, absent => 1, cg_absent => 3 },
				       madv_free => { runs => 1, differs => 1, cg_equal => 1 } },
		  'analyse: each design\'s counters against the pages found lost, /proc/vmstat and memory.stat');
	is_deeply($ha->{swapless}, { vrange => { runs => 1, purging => 0 }, madv_free => { runs => 1, purging => 1 } },
		  '... pressure runs without swap, and those that lost pages (madv_pageout is none)');
	is_deeply($ha->{safety}, { runs => 7, lost_nonvolatile_bytes => 4096, cache_wrong => 1, garbage_pages => 2,
				   undetected_vrange_losses => 1 }, '... the safety sums over every scenario run');
	is_deeply([map { "$_->{mode} $_->{d}{scenario}" } VMAB::Report::Goals::lost_alone(\@hd, 'vrange')],
		  ['swap-classic memcg_reclaim', 'noswap-classic madv_pageout'], 'lost_alone: not the image cache, not without loss');
	is_deeply([VMAB::Report::Goals::lost_share(\@hd, ['vrange', 'madv_free'], qw(no_pressure memcg_reclaim memcg_limit image_cache madv_pageout))],
		  [['memcg_reclaim', 0, undef], ['memcg_limit', undef, 10], ['madv_pageout', 20, 50]],
		  'lost_share: the median % lost per scenario and design (the lower of two), not the cache\'s');
	is_deeply({ %{VMAB::Report::Goals::marking([map { { variant => 'v', mode => 'm', d => { kind => 'scenario', design => 'madv_free',
			scenario => 'no_pressure', pages_marked => 2048, @$_ } } } [memcg_lazyfree_delta_kb => 8160, counter_marked => 2048,
			chunk_kb => 64, ns_mark_per_mib => 300, ns_take_back_per_mib => 50], [memcg_lazyfree_delta_kb => -1, counter_marked => 2000,
			nr_lazyfree_delta => 2048, ns_mark_per_mib => 100]], 'madv_free')}, runs => undef },
		  { runs => undef, n => 2, marked => 2048, chunk_kb => 64, lazyfree_kb => [8160], pglazyfree => [2048, 2000],
		    nr_lazyfree => [2048], lazyfree => 8160, mark_per_mib => [300, 100], mark_per_call => [undef, undef],
		    read_per_mib => [undef, undef], take_back_per_mib => [50, undef], mark => 100, take_back => 50 },
		  'marking: its cost, run by run and the median, and the changes each gave (-1: the kernel has no such figure)');
	my @cd = map { { variant => 'both', mode => 'swap-classic', d => { kind => 'scenario', design => 'vrange', @$_ } } }
		[scenario => 'image_cache', cache_objects => 256, cache_object_kb => 32, cache_regenerated => 200, cache_wrong => 0],
		[scenario => 'image_cache', cache_objects => 256, cache_object_kb => 32, cache_regenerated => 210, cache_wrong => 2],
		[scenario => 'thp', pages_marked => 1024, pages_discarded => 1024, thp_kb_after_mark => 4096],
		[scenario => 'write_after_mark', written_pages => 256, written_kept => 250],
		[scenario => 'write_after_mark', written_pages => 256, written_kept => 256];
	is_deeply({ %{VMAB::Report::Goals::image_cache(\@cd, 'vrange')}, runs => undef },
		  { runs => undef, n => 2, regenerated => 200, objects => 256, object_kb => 32, wrong => 2 },
		  'image_cache: the median regenerated (the lower of two), the wrong ones summed');
	is_deeply(VMAB::Report::Goals::scn_thp(\@cd, 'vrange'), { dropped => 1024, pages => 1024, thp_kb => 4096, n => 1 },
		  'scn_thp: as drop_thp, from the scenario');
	is_deeply(VMAB::Report::Goals::scn_write(\@cd, 'vrange'), { kept => 250, pages => 256, n => 2 }, 'scn_write: as drop_write');
	is(VMAB::Report::Goals::image_cache(\@cd, 'madv_free'), undef, '... none of a design without runs');
	$ha->{cache}{vrange} = VMAB::Report::Goals::image_cache(\@cd, 'vrange');
	like((VMAB::Report::Summary::figures($hm, $ha))[1]{vrange}, qr/^200 of 256 objects of 32 KiB regenerated \(median of 2 runs\); 2 came/,
	     'the summary\'s image cache figure reads the analysis');
	$ha->{swapless}{vrange} = { runs => 9, purging => 9 };
	like((VMAB::Report::Scenarios::answers($hm, $ha))[4]{vrange}, qr/^discarded without swap in 9 of 9 /,
	     'question 5\'s answer and its evidence read the analysis');
	my $ev = VMAB::Report::Scenarios::section($hm, '/x', $ha);
	like($ev, qr/A: vrange: pages were discarded without swap in 9 of 9 pressure runs/, '... both');
	like($ev, qr/regenerated 200 \(median; 200 to 210, 2 runs\) of 256 objects; objects that came back wrong: 2 in 2 runs/,
	     '... and question 3\'s evidence the same image cache figures');
}

my $k = VMAB::Report::Goals::keep_shares($m, 'madv_free');
is_deeply({ %$k, shares => scalar @{$k->{shares}} }, { met => 3, n => 10, share => 0.878, threshold => 0.9, shares => 10 },
	  'churn against keep, B');
is_deeply([map { [@$_{qw(variant mode threads free vrange_vs_free)}, $_->{keep}{madv_free}] }
	   grep { $_->{variant} eq 'both' } VMAB::Report::Goals::churn_rows($m)],
	  [['both', 'swap-classic', 1, 2.281, 0.814, 0.927], ['both', 'swap-classic', 2, 1.508, 1.237, 0.67],
	   ['both', 'noswap-classic', 1, 2.267, 0.932, 0.899], ['both', 'noswap-classic', 2, 1.696, 0.946, 0.72]],
	  'churn rows of both: MADV_FREE x DONTNEED, vrange x MADV_FREE, MADV_FREE share of keep');
my ($row) = grep { $_->{variant} eq 'both' } @{$an->{churn}};
is_deeply([sort grep { defined $row->{keep}{$_} } keys %{$row->{keep}}], [qw(dontneed keep madv_free munmap vma_flag vrange vrange_own_vma)],
	  '... each design\'s share of keep, once: the summary, the goals and where the time goes read it');
{
	my $an = VMAB::Report::Goals::analyse($m);
	$_->{keep}{madv_free} &&= 0.5 for @{$an->{churn}};
	like((VMAB::Report::Summary::figures($m, $an))[2]{madv_free}, qr/^50% of keep \(median of 10 runs\)/,
	     '... the summary\'s churn against keep');
	require VMAB::Report::Bench;
	like(VMAB::Report::Bench::section($m, tempdir(CLEANUP => 1), $an), qr/^\| madv_free \| 50% \|/m, '... and where the time goes');
}

my $g = VMAB::Report::Goals::op_growth($m, 'vrange', 'volatile');
is_deeply([@$g{qw(n n_adjusted lo hi)}, map { sprintf('%.4f', $_) } @$g{qw(growth adjusted)}],
	  [3, 3, [4096], [1 << 30], '6.0539', '0.9457'], 'mark cost growth of A over the variants, and against the control');
my ($sw) = grep { $_->{variant} eq 'both' } @{$an->{sweeps}};
is_deeply([@{$sw->{growth}{vrange}{nonvolatile}}{qw(lo hi)}, map { sprintf('%.4f', $_) } @{$sw->{growth}{vrange}{nonvolatile}}{qw(ratio adjusted)}],
	  [4096, 1 << 30, '5.9096', '0.9603'], 'a sweep\'s growth of each op, once: NONVOLATILE in both, and against the control');
is_deeply([map { [$_, sort keys %{$sw->{growth}{$_}}] } sort keys %{$sw->{growth}}],
	  [[qw(dontneed dontneed refault)], [qw(madv_free madv_free refault)], [qw(vrange getppid nonvolatile nonvolatile_after_purge
	    nonvolatile_purged refault refault_purged volatile volatile_before_purge)]], '... of every design and op it timed');
{
	my $an = VMAB::Report::Goals::analyse($m);
	$_->{growth}{vrange}{volatile}{ratio} = 100 for grep { ($_->{growth}{vrange} // {})->{volatile} } @{$an->{sweeps}};
	like((VMAB::Report::Summary::figures($m, $an))[3]{vrange}, qr/^100\.00x at 1 GiB vs 4 KiB \(median of 3 variants\)/,
	     '... the summary\'s mark cost reads it');
	like(VMAB::Report::Bench::section($m, tempdir(CLEANUP => 1), $an), qr/; vrange VOLATILE: 100\.00x at 1 GiB vs 4 KiB;/,
	     '... and so does the mark section');
}
my ($both) = grep { $_->{variant} eq 'both' } VMAB::Report::Goals::mark_sweeps($m);
my $mg = VMAB::Report::Goals::mark_goal($both);
is_deeply([@$mg{qw(variant mode lo hi threshold met)}, !!$mg->{flat}, sprintf('%.4f', $mg->{ratio})],
	  ['both', 'swap-classic', 4096, 1 << 30, 2, 1, '', '6.8161'],
	  'the mark goal of both: not flat, met as a ratio to the null call');

is_deeply(VMAB::Report::Goals::oom_vs_none($m, 'vrange'),
	  { n => 6, ratio => 1.041, ratios => [1.041, 1.109, 1.25, 0.966, 1.04, 1.236], threshold => 1.25, within => 6 },
	  'an OOM next to volatile memory against none');
is_deeply([map { [@$_{qw(mode design ratio)}, $_->{met} ? 1 : 0] } grep { $_->{variant} eq 'both' } VMAB::Report::Goals::oom_rows($m)],
	  [['noswap-classic', 'none', undef, 0], ['noswap-classic', 'madv_free', 0.866, 1], ['noswap-classic', 'vrange', 1.25, 1],
	   ['noswap-mglru', 'none', undef, 0], ['noswap-mglru', 'madv_free', 0.968, 1], ['noswap-mglru', 'vrange', 0.966, 1]],
	  'the OOM rows of both, the control unjudged');
{
	my $an = VMAB::Report::Goals::analyse($m);
	$_->{ratio} = 3 for grep { $_->{design} eq 'vrange' } @{$an->{oom}};
	like((VMAB::Report::Summary::figures($m, $an))[5]{vrange}, qr/^3\.00x the time with nothing marked \(median of 6 runs\)/,
	     'the summary\'s OOM figure reads the analysis\' rows');
	like(VMAB::Report::Bench::section($m, tempdir(CLEANUP => 1), $an), qr/^\| both \| noswap-classic \| vrange \| [^|]+\| [^|]+\| 3\.00x \|/m,
	     '... and so does the OOM table');
}

# The designs: A and B always have a column, C once matrix.json has its figures.
is_deeply([columns($m)], ['vrange', 'madv_free'], 'columns: A and B');
my %c = %$m;
$c{variants} = { %{$m->{variants}}, droppable => { modes => { 'swap-classic' => { data => [
	{ kind => 'scenario', scenario => 'memcg_reclaim', design => 'droppable', pages_marked => 2048,
	  pages_discarded => 2048, first_pass_discarded => 2000, first_pass_keep_swapped_kb => 0 }] } } } };
is_deeply([columns(\%c)], ['vrange', 'madv_free', 'droppable'], '... and C with its figures');
is(VMAB::Report::Goals::first_pass([all_data(\%c)], 'droppable')->{taken}, 2000, '... whose goals come from the same code');
is_deeply([map { $_->{title} } VMAB::Designs::designs()], ['A: vrange', 'B: MADV_FREE', 'C: MAP_DROPPABLE'], 'the designs table');

# The whole report with C's figures (B's, copied as design droppable): a
# third column in the summary, the questions and the scenario tables, C in
# the benchmarks' tables, and MAP_DROPPABLE measured, not cited.
{
	use File::Temp qw(tempdir);
	use VMAB::Report qw(report_md);
	my $mc = load_matrix("$FindBin::Bin/fixtures/report-matrix.json");
	for my $mode (map { values %{$_->{modes}} } values %{$mc->{variants}}) {
		push @{$mode->{data}}, map { { %$_, design => 'droppable' } } grep { ($_->{design} // '') eq 'madv_free' &&
			($_->{kind} eq 'scenario' || ($_->{bench} // '') =~ /^(churn|oom|pressure)$/) } @{$mode->{data}};
	}
	my $md = report_md($mc, tempdir(CLEANUP => 1));
	is(scalar(() = $md =~ /^\|[^\n]*\| A: vrange \| B: MADV_FREE \| C: MAP_DROPPABLE \|$/mg), 2 + 14,
	   'C has a column in the semantics and headline tables and in each scenario table');
	like($md, qr/^3\. \*\*SIGBUS or zero-fill\.\*\* .* C: a read of a lost page while marked gave zero ×100; garbage pages 0\. \(\[evidence/m,
	     'each question answered for C too');
	like($md, qr/^\| mode \| threads \| .*\| droppable \/ DONTNEED \| vrange \/ MADV_FREE \|$/m, 'C in the churn table');
	like($md, qr/^- An OOM without swap next to droppable memory, both noswap-classic: /m, '... and in the OOM goal');
	like($md, qr/^`MAP_DROPPABLE` .* is measured here, as design C/m, 'What came after: measured, not cited');
	unlike($md, qr/not measured in this run \(no figures of design `droppable`/, 'not said to be unmeasured');
}

# The judge reads the same table: a skip reason naming a design needs its
# option, and a declaration's short name for a design is its option.
use VMAB::Expectations;
use VMAB::Needs;
is_deeply(VMAB::Expectations::reason_needs('no droppable mapping here'), { CONFIG_MAP_DROPPABLE => 1 },
	  'the judge: a skip reason naming droppable needs CONFIG_MAP_DROPPABLE');
is($VMAB::Needs::SHORT{$_->{key}}, $_->{kconfig}, "VMAB_NEEDS short name $_->{key} is $_->{kconfig}")
	for VMAB::Designs::designs();

# The thresholds are the guest's and the contract's numbers.
my $contract = slurp("$top/docs/contract.md");
my ($s9) = $contract =~ /^## 9\. (.*?)(?=^## |\z)/ms;
my ($s45) = $contract =~ /^### 4\.5 (.*?)^##/ms;
like($s9, qr/takes at least \Q@{[100 * $THRESHOLD{first_taken}]}\E% of the marked pages and\s+swaps out at most \Q@{[100 * $THRESHOLD{first_swapped}]}\E%/,
     'SPEC 9 states the reclaim thresholds');
like($s9, qr/at least \Q@{[100 * $THRESHOLD{keep}]}\E% of the\s+throughput of never\s+giving memory back/, 'SPEC 9 states the keep threshold');
like($s45, qr/within \Q$THRESHOLD{flat}\Ex of a 4 KiB one/, 'SPEC 4.5 states the flat-cost threshold');
my $reclaim = slurp("$top/suite/reclaim_test.c");
like($reclaim, qr/EXPECT_GE\(taken, NPAGES\(MARKED_LEN\) \* \Q@{[100 * $THRESHOLD{first_taken}]}\E \/ 100\)/, 'reclaim_test asserts 95%');
like($reclaim, qr/EXPECT_LE\(swapped, NPAGES\(USED_LEN\) \* \Q@{[100 * $THRESHOLD{first_swapped}]}\E \/ 100\)/, '... and 5%');
like(slurp("$top/suite/bench_oom.c"), qr/the goal: \Q$THRESHOLD{oom}\E/, 'bench_oom states its goal');
done_testing;
