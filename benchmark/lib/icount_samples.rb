# The samples of benchmark/vmstack/icount.rb (--tsv): "file job ruby N Ir" lines.
module IcountSamples
  module_function

  # {job => {ruby => instructions per iteration}}, the last sample of each;
  # a .rb file's job is the file, a YAML job "file/job".
  def per_job(tsv, filter: nil)
    per = Hash.new { |h, k| h[k] = {} }
    File.foreach(tsv) do |l|
      file, job, ruby, n, ir = l.chomp.split("\t")
      next if filter && !file.match?(filter)
      key = file.end_with?(".rb") ? job : "#{file.sub(/\.yml\z/, '')}/#{job}"
      per[key][ruby] = Integer(ir).to_f / Integer(n)
    end
    per
  end
end
