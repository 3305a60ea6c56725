package VMAB::Stage::Build;
# The build stage: every selected variant's kernel, in variants.conf order;
# each variant's objects may start from an earlier one's
# (VMAB::Kbuild::chain_plan).  A failed build leaves no stamp, so later
# variants chain from an earlier, good one.
use strict;
use warnings;
use Exporter 'import';
use File::Path qw(make_path);
use VMAB::Kbuild qw(build_kernel chain_plan chain_build_dir built_from_tree few_objects_to_rebuild);
use VMAB::Kconfig qw(configure);
use VMAB::Log qw(info phase);
use VMAB::Scale qw(compile_jobs host_cores);
use VMAB::Tree qw(tree_commit changed_files);

our @EXPORT_OK = qw(build_stage);

# build_stage($ctx, $tree, \@variants, \@all_variants)
#   -> { name => { phases => {...}, release } | { phases => {...}, error } }
sub build_stage {
	my ($ctx, $tree, $variants, $all) = @_;
	my ($top, $out, $logs) = @$ctx{qw(top out logs)};
	my $cores = host_cores();
	my $jobs = $ctx->{opt}{jobs} || compile_jobs($cores, $ENV{DISTCC_HOSTS});
	info("build: make -j$jobs (" . ($ctx->{opt}{jobs} ? '--jobs' : "$cores cores + 1" .
	     (length($ENV{DISTCC_HOSTS} // '') ? " + the distcc hosts' slots: $ENV{DISTCC_HOSTS}" : '')) . ')');
	my $commit = tree_commit($tree);
	my (%built, %present);
	for my $v (@$all) {
		my $b = "$out/build/$v->{name}";
		next unless -d $b;
		$present{$v->{name}} = 1;
		$built{$v->{name}} = built_from_tree($b);
	}
	my @order = map { $_->{name} } @$all;
	my %rec;
	for my $v (@$variants) {
		my $n = $v->{name};
		my $build = "$out/build/$n";
		my $log = "$logs/$n";
		make_path($log);
		unlink "$log/config.log", "$log/build.log";
		my %ph;
		eval {
			my $mine = $built{$n};
			my $changed = defined $mine && $mine ne $commit ? changed_files($tree, $mine, $commit) : undef;
			my ($how, $from) = chain_plan(order => \@order, name => $n, tree => $commit,
				built => \%built, present => \%present,
				in_place => $changed && -d $build && few_objects_to_rebuild($build, $tree, $changed));
			$ph{build_from} = $how eq 'copy' ? $from : $how eq 'keep' ? $n : 'empty';
			if ($how eq 'copy') {
				($ph{chain_copy}) = phase("$n: start from ${from}'s objects (cp -a)", sub {
					chain_build_dir("$out/build/$from", $build, "$log/build.log");
				});
				$present{$n} = 1;
			}
			($ph{config}) = phase("$n: configure", sub {
				configure(tree => $tree, build => $build, variant => $v,
					  fragdir => "$top/Kconfig.fragments", log => "$log/config.log");
			});
			$present{$n} = 1;
			delete $built{$n};
			my $b;
			($ph{build}, $b) = phase("$n: build bzImage", sub {
				build_kernel(top => $top, tree => $tree, build => $build,
					     dest => "$out/$n", log => "$log/build.log",
					     jobs => $jobs, tree_commit => $commit, from => $ph{build_from},
					     chained_from => $how eq 'copy' ? "$out/build/$from" : undef);
			});
			$built{$n} = $commit;
			@ph{qw(objects objects_rebuilt)} = @$b{qw(objects rebuilt)};
			info("$n: $b->{rebuilt} of $b->{objects} objects rebuilt" .
			     ($ph{build_from} eq $n ? ' in place' : $ph{build_from} eq 'empty' ? ' from scratch'
			      : " from ${from}'s") . ', vmlinux ' . ($b->{relinked} ? 'relinked' : 'unchanged'));
			$rec{$n} = { phases => \%ph, release => $b->{release} };
			1;
		} or do {
			my $err = $@;
			print STDERR $err;
			$rec{$n} = { phases => \%ph, error => $err };
		};
	}
	return \%rec;
}

1;
