## /system

system-title = <b>Service status</b> (as of { $updatedAt })
system-pools = Energy pools: { $activeCount } of { $poolCount } active, { $inactiveCount } inactive.
system-energy = Energy that can be matched right now: <b>{ $matchable }</b>. Reserved for orders in progress: { $reserved }. Available in total: { $available }.
system-provider =
    <b>For energy sellers</b>
    To sell your energy through the service, grant active permission to { $address } for { $permissions }, then register at { $registerPath } while signed in to the dashboard.
system-provider-terms = Default terms: payouts every { $paymentHours } h (you can choose { $paymentHoursMin } to { $paymentHoursMax } h), minimum price { $minPriceSun } sun, profit share { $profitSharePercent }%, minimum delegation { $minDelegateAmount } energy, reserve buffer { $maintainBuffer }, rental durations from { $minDuration } to { $maxDuration }.
system-instructions = The service's own notes for providers (its text, not translated):
    <blockquote>{ $instructions }</blockquote>
