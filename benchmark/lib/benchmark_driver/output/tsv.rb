# benchmark_driver output plugin: appends every measured value to the file
# named by BENCH_TSV, one line per value:
#   round <TAB> file <TAB> job <TAB> executable <TAB> unit <TAB> value <TAB> larger_better
# benchmark/suite.rb reads these lines and computes ratios and spreads.
class BenchmarkDriver::Output::Tsv
  OPTIONS = {}

  def initialize(metrics:, jobs:, contexts:, options: {})
    @metrics = metrics
    @path = ENV.fetch("BENCH_TSV")
    @file = ENV.fetch("BENCH_FILE", "-")
    @round = ENV.fetch("BENCH_ROUND", "1")
  end

  def with_warmup
    @warmup = true
    yield
  ensure
    @warmup = false
  end

  def with_benchmark
    yield
  end

  def with_job(job)
    @job = job.name
    yield
  end

  def with_context(context)
    @context = context.name
    yield
  end

  # result: BenchmarkDriver::Result (values, all_values: {metric => value(s)})
  def report(result)
    return if @warmup
    File.open(@path, "a") do |f|
      result.values.each do |metric, value|
        samples = result.all_values && result.all_values[metric] || [value]
        samples.each do |v|
          f.puts [@round, @file, @job, @context, metric.unit, v, metric.larger_better ? 1 : 0].join("\t")
        end
      end
    end
  end
end
