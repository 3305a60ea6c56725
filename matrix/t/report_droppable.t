# Design C's third column beyond reclaim: its scenario-shaped records of
# suite/droppable_test.c (madv_pageout, image_cache, kind "scenario") and
# its bench_oom runs read by the same analysis as A's and B's, and what
# cannot be asked of it answered from its row of VMAB::Designs
# (does_not_apply), never "not measured".  Structures, not wording.
use strict;
use warnings;
use Test::More;
use VMAB::Designs qw(design);
use VMAB::Report::Data qw(all_data columns $NOT_MEASURED);
use VMAB::Report::Goals;
use VMAB::Report::Summary;
use VMAB::Report::Scenarios;

# As a droppable boot printed them (2026-12-07), two modes.
sub access { return { prog => 'droppable_test', kind => 'scenario', scenario => 'madv_pageout', design => 'droppable',
	pressure => 'madv_pageout', pages_marked => 1024, pages_discarded => 1024, pages_intact => 0, pages_garbage => 0,
	pages_nonresident => 1024, detect => 'zero_page', read_returns => 'zero', probe_page => 'discarded',
	kernel_read_into => 'ok', kernel_write_from => 'ok', counter_discarded => -1, memcg_counter_discarded => -1,
	rss_kb_before => 4096, rss_kb_after => 4, lost_nonvolatile_bytes => 0 } }
sub cache { return { prog => 'droppable_test', kind => 'scenario', scenario => 'image_cache', design => 'droppable',
	pressure => 'madv_pageout', detect => 'canary', cache_objects => 256, cache_object_kb => 32, pages_marked => 2048,
	objects_paged_out => 64, cache_regenerated => $_[0], cache_wrong => 0, pages_garbage => 0, ns_fetch_all => 5e8 } }
sub oom { return { prog => 'bench_oom', kind => 'bench', bench => 'oom', rounds => 15, oom_kill => 15, pgscan_anon => 0,
	pages_discarded => 0, errors => 0, @_ } }
my $m = { variants => { droppable => { modes => {
	'swap-classic' => { data => [access(), cache(64), oom(design => 'none', ns_median => 6.0e7),
		oom(design => 'droppable', ns_median => 5.6e7, ratio_to_control => 0.75)] },
	'noswap-mglru' => { data => [access(), cache(66), oom(design => 'none', ns_median => 4.4e7),
		{ prog => 'droppable_test', kind => 'droppable', scenario => 'dirty_dropped_not_swapped', design => 'droppable',
		  pages => 1024, pages_discarded => 1024, pswpout => 0 },
		oom(design => 'droppable', ns_median => 5.2e7, ratio_to_control => 1.5)] } } } } };
my @data = all_data($m);
my $an = VMAB::Report::Goals::analyse($m);

is_deeply([columns(\@data)], [qw(vrange madv_free droppable)], 'its scenario-shaped records give C a column of the scenarios');
is_deeply([map { [@{$_->{d}}{qw(scenario read_returns detect kernel_read_into kernel_write_from pages_garbage)}] }
	   VMAB::Report::Goals::lost_alone(\@data, 'droppable')], [(['madv_pageout', 'zero', 'zero_page', 'ok', 'ok', 0]) x 2],
	  'questions 3 and 4: the dropped pages it lost alone, what user space and the kernel read (the image cache judged apart)');
my $c = $an->{cache}{droppable};
is_deeply({ %$c, runs => [map { $_->{mode} } @{$c->{runs}}] },
	  { runs => ['swap-classic', 'noswap-mglru'], n => 2, regenerated => 64, objects => 256, object_kb => 32, wrong => 0 },
	  'the image cache: regenerated (median), objects, wrong (summed), from the same goal code as A and B');
is_deeply([map { [@$_{qw(mode design ratio met)}] } grep { $_->{design} eq 'droppable' } @{$an->{oom}}],
	  [['swap-classic', 'droppable', 0.75, 1], ['noswap-mglru', 'droppable', 1.5, '']], 'the OOM rows of C, each judged');
is_deeply(VMAB::Report::Goals::oom_vs_none($an, 'droppable'),
	  { threshold => 1.25, ratios => [0.75, 1.5], n => 2, ratio => 0.75, within => 1 }, '... and its goal');
is($an->{marking}{droppable}, undef, 'no marking figures: C has no mark');
is_deeply([$an->{swapless}{droppable}, VMAB::Report::Goals::drop_swapless($m, 'droppable')], [undef, { runs => 1, purging => 1 }],
	  'without swap: none of the scenarios\' pressure runs, its own MADV_PAGEOUT runs (question 5\'s evidence)');
is($an->{safety}{undetected_vrange_losses}, 0, 'a dropped page found by its content is no undetected loss');

# What cannot be asked of C: its row's words, where a figure would be.
my $no = design('droppable')->{does_not_apply};
is_deeply([sort keys %$no], [qw(churn cost mark)], 'C: churn, the cost of marking and the mark cost do not apply');
my %fig = map { $_->{figure} => $_ } VMAB::Report::Summary::figures($m, $an);
my ($churn, $mark, $oom, $cache) = map { my $re = $_; (grep { /$re/ } keys %fig)[0] } qr/^Allocator churn/, qr/^Mark cost/,
	qr/^An OOM/, qr/^Image cache/;
is_deeply([map { $fig{$_}{droppable} } $churn, $mark], [@$no{qw(churn mark)}], 'the headline rows say so for C ...');
is_deeply([map { $fig{$_}{vrange} } $churn, $mark], [($NOT_MEASURED) x 2], '... and A, which has no figures, is not measured');
isnt($fig{$_}{droppable}, $NOT_MEASURED, "C measured: $_") for $oom, $cache;
my %ans = map { $_->{key} => $_->{droppable} } VMAB::Report::Scenarios::answers($m, $an);
is($ans{cost}, $no->{cost}, 'question 6 for C: does not apply');
isnt($ans{$_}, $NOT_MEASURED, "question $_ for C: measured") for qw(sigbus kernel);
my %sem = map { $_->{aspect} => $_->{droppable_measured} } VMAB::Report::Summary::semantics($m);
isnt($sem{'How loss is signalled'}, $NOT_MEASURED, 'how C signals a loss: seen, from its records');
my $ev = VMAB::Report::Scenarios::section($m, undef, $an);
my ($q6) = $ev =~ /^### Question 6[^\n]*\n(.*?)(?=^### |\z)/ms;
ok(index($q6, $no->{cost}) >= 0, 'the evidence of question 6 carries the same words for C');

done_testing();
