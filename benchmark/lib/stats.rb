# Small statistics shared by the benchmark runners.
module Stats
  module_function

  def median(xs)
    s = xs.sort
    n = s.size
    raise ArgumentError, "median of nothing" if n.zero?
    n.odd? ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0
  end

  def geomean(xs)
    Math.exp(xs.sum { |x| Math.log(x) } / xs.size)
  end
end
