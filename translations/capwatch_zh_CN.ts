<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>capwatch::session</name>
    <message>
        <source>A profile needs a name.</source>
        <translation>配置需要一个名称。</translation>
    </message>
    <message>
        <source>Another profile is already named “%1”.</source>
        <translation>已有另一个配置名为“%1”。</translation>
    </message>
    <message>
        <source>The profile&apos;s id “%1” is taken or not letters, digits, - and _.</source>
        <translation>配置的 ID“%1”已被占用，或含有字母、数字、- 和 _ 以外的字符。</translation>
    </message>
    <message>
        <source>The endpoint must be an http:// or https:// URL with a host.</source>
        <translation>端点必须是带主机名的 http:// 或 https:// URL。</translation>
    </message>
    <message>
        <source>A header cannot contain a line break.</source>
        <translation>请求头不能包含换行符。</translation>
    </message>
    <message>
        <source>“%1” is not a header name.</source>
        <translation>“%1”不是有效的请求头名称。</translation>
    </message>
    <message>
        <source>capwatch sets the header %1 itself.</source>
        <translation>capwatch 会自行设置请求头 %1。</translation>
    </message>
    <message>
        <source>A profile cannot fall back to itself.</source>
        <translation>配置不能以自身作为备用配置。</translation>
    </message>
    <message>
        <source>The fallback “%1” is not a profile.</source>
        <translation>备用配置“%1”不存在。</translation>
    </message>
</context>
<context>
    <name>capwatch::session::ParkingTexts</name>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>%1 tomorrow</source>
        <translation>明天 %1</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%2 %1</translation>
    </message>
    <message>
        <source>now</source>
        <translation>现在</translation>
    </message>
    <message>
        <source>in %1 s</source>
        <translation>%1 秒后</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>%1 后</translation>
    </message>
    <message>
        <source>Send at %1 (%2)</source>
        <translation>定时发送：%1（%2）</translation>
    </message>
    <message>
        <source>Parked until %1, in %2</source>
        <translation>已挂起至 %1，还剩 %2</translation>
    </message>
    <message>
        <source>park %1 of %2</source>
        <translation>第 %1 次挂起，共 %2 次</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Sending at the reset · %1</source>
        <translation>额度已重置，正在发送 · %1</translation>
    </message>
    <message>
        <source>Parked until %1 · in %2 · %3</source>
        <translation>已挂起至 %1 · 还剩 %2 · %3</translation>
    </message>
    <message>
        <source>Not parked: the provider did not say when the limit resets</source>
        <translation>未挂起：服务商未说明额度何时重置</translation>
    </message>
    <message>
        <source>Not parked: the limit resets in %1, more than %2 away</source>
        <translation>未挂起：额度将在 %1 后重置，超过了 %2</translation>
    </message>
    <message numerus="yes">
        <source>Not parked again: it was parked %n times in a row already</source>
        <translation>
            <numerusform>未再次挂起：它已连续挂起 %n 次</numerusform>
        </translation>
    </message>
    <message>
        <source>Due: waiting for the previous send to this provider</source>
        <translation>已到期：正在等待发往此服务商的上一次发送</translation>
    </message>
    <message>
        <source>Waiting for the demo provider to be chosen again</source>
        <translation>正在等待重新选择演示服务商</translation>
    </message>
    <message>
        <source>Waiting for %1 to be chosen again</source>
        <translation>正在等待重新选择 %1</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>due</source>
        <translation>已到期</translation>
    </message>
    <message>
        <source>sending</source>
        <translation>发送中</translation>
    </message>
    <message>
        <source>waits for provider</source>
        <translation>等待服务商</translation>
    </message>
    <message>
        <source>Demo provider</source>
        <translation>演示服务商</translation>
    </message>
    <message>
        <source>waits for consent</source>
        <translation>等待同意</translation>
    </message>
    <message>
        <source>Waiting for your consent to send the key unencrypted to %1</source>
        <translation>正在等待您同意将密钥以未加密方式发送到 %1</translation>
    </message>
    <message>
        <source>1 send is parked: it goes out at the next start of capwatch.</source>
        <translation>1 条请求已暂存：将在下次启动 capwatch 时发出。</translation>
    </message>
    <message>
        <source>1 send is parked: it goes out at the next start of capwatch, at %1 or later.</source>
        <translation>1 条请求已暂存：将在下次启动 capwatch 时、%1 或之后发出。</translation>
    </message>
    <message numerus="yes">
        <source>%n sends are parked: they go out at the next start of capwatch.</source>
        <translation>
            <numerusform>%n 条请求已暂存：将在下次启动 capwatch 时发出。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n sends are parked: they go out at the next start of capwatch, the first at %1 or later.</source>
        <translation>
            <numerusform>%n 条请求已暂存：将在下次启动 capwatch 时发出，第一条在 %1 或之后。</numerusform>
        </translation>
    </message>
    <message>
        <source>1 send is in flight: quitting stops it; its prompt stays in the history.</source>
        <translation>1 条请求正在进行：退出会停止它；其提示保留在历史记录中。</translation>
    </message>
    <message numerus="yes">
        <source>%n sends are in flight: quitting stops them; their prompts stay in the history.</source>
        <translation>
            <numerusform>%n 条请求正在进行：退出会停止它们；其提示保留在历史记录中。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>capwatch::session::RetryTexts</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分钟 %2 秒</translation>
    </message>
    <message>
        <source>%1 h %2 min %3 s</source>
        <translation>%1 小时 %2 分钟 %3 秒</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>success</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>token limit</source>
        <translation>Token 上限</translation>
    </message>
    <message>
        <source>rate limit</source>
        <translation>速率限制</translation>
    </message>
    <message>
        <source>transient</source>
        <translation>临时故障</translation>
    </message>
    <message>
        <source>auth</source>
        <translation>认证</translation>
    </message>
    <message>
        <source>request too large</source>
        <translation>请求过大</translation>
    </message>
    <message>
        <source>out of credit</source>
        <translation>余额不足</translation>
    </message>
    <message>
        <source>fatal</source>
        <translation>致命错误</translation>
    </message>
    <message>
        <source>running</source>
        <translation>进行中</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>retry-after</source>
        <translation>retry-after</translation>
    </message>
    <message>
        <source>retry-after-ms</source>
        <translation>retry-after-ms</translation>
    </message>
    <message>
        <source>retry delay</source>
        <translation>重试延迟</translation>
    </message>
    <message>
        <source>message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>rate-limit reset</source>
        <translation>速率限制重置</translation>
    </message>
    <message>
        <source>backoff</source>
        <translation>退避</translation>
    </message>
    <message>
        <source>new key</source>
        <translation>新密钥</translation>
    </message>
    <message>
        <source>retry-after header asked %1; capped to %2</source>
        <translation>retry-after 响应头要求等待 %1，已限制为 %2</translation>
    </message>
    <message>
        <source>retry-after header: %1</source>
        <translation>retry-after 响应头：%1</translation>
    </message>
    <message>
        <source>retry-after-ms header asked %1; capped to %2</source>
        <translation>retry-after-ms 响应头要求等待 %1，已限制为 %2</translation>
    </message>
    <message>
        <source>retry-after-ms header: %1</source>
        <translation>retry-after-ms 响应头：%1</translation>
    </message>
    <message>
        <source>provider asked %1; capped to %2</source>
        <translation>服务商要求等待 %1，已限制为 %2</translation>
    </message>
    <message>
        <source>provider asked %1</source>
        <translation>服务商要求等待 %1</translation>
    </message>
    <message>
        <source>retryDelay in the error asked %1; capped to %2</source>
        <translation>错误中的 retryDelay 要求 %1；已限制为 %2</translation>
    </message>
    <message>
        <source>retryDelay in the error: %1</source>
        <translation>错误中的 retryDelay：%1</translation>
    </message>
    <message>
        <source>rate-limit reset header asked %1; capped to %2</source>
        <translation>速率限制重置标头要求 %1；已限制为 %2</translation>
    </message>
    <message>
        <source>rate-limit reset header: %1</source>
        <translation>速率限制重置标头：%1</translation>
    </message>
    <message>
        <source>backoff %1</source>
        <translation>退避 %1</translation>
    </message>
    <message>
        <source>new key from the credential store: no wait</source>
        <translation>已从凭据存储获取新密钥：无需等待</translation>
    </message>
    <message>
        <source>%1 %2 of %3</source>
        <translation>%1 %2（共 %3）</translation>
    </message>
    <message>
        <source>%1 %2 → %3</source>
        <translation>%1 %2 → %3</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>budget exhausted</source>
        <translation>预算已耗尽</translation>
    </message>
    <message>
        <source>attempts exhausted</source>
        <translation>尝试次数已用完</translation>
    </message>
    <message>
        <source>not retryable</source>
        <translation>不可重试</translation>
    </message>
    <message>
        <source>no response in time</source>
        <translation>未及时响应</translation>
    </message>
    <message>
        <source>key unchanged</source>
        <translation>密钥未变</translation>
    </message>
    <message>
        <source>budget exhausted (the %1 s of waiting are used up)</source>
        <translation>预算已耗尽（%1 秒等待时间已用完）</translation>
    </message>
    <message>
        <source>all %1 attempts failed</source>
        <translation>%1 次尝试均失败</translation>
    </message>
    <message>
        <source>the error is not one that waiting can fix</source>
        <translation>此错误无法通过等待解决</translation>
    </message>
    <message>
        <source>the provider did not answer in time</source>
        <translation>服务商未能及时响应</translation>
    </message>
    <message>
        <source>the key was rejected and no new key was found</source>
        <translation>密钥被拒绝，且未找到新密钥</translation>
    </message>
    <message>
        <source>Attempt started</source>
        <translation>开始尝试</translation>
    </message>
    <message>
        <source>Retry scheduled</source>
        <translation>已安排重试</translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>Gave up</source>
        <translation>已放弃</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>parked</source>
        <translation>已挂起</translation>
    </message>
    <message>
        <source>sent now</source>
        <translation>已立即发送</translation>
    </message>
    <message>
        <source>reset reached</source>
        <translation>额度已重置</translation>
    </message>
    <message>
        <source>parked · %1</source>
        <translation>已挂起 · %1</translation>
    </message>
    <message>
        <source>parked until %1</source>
        <translation>已挂起至 %1</translation>
    </message>
    <message>
        <source>Parked</source>
        <translation>已挂起</translation>
    </message>
    <message>
        <source>Unparked</source>
        <translation>已解除挂起</translation>
    </message>
    <message>
        <source>paced</source>
        <translation>已节流</translation>
    </message>
    <message>
        <source>x-ratelimit-reset-tokens header: %1 (pacing, outside the retry budget)</source>
        <translation>x-ratelimit-reset-tokens 响应头：%1（节流，不计入重试预算）</translation>
    </message>
    <message>
        <source>x-ratelimit-reset-requests header: %1 (pacing, outside the retry budget)</source>
        <translation>x-ratelimit-reset-requests 响应头：%1（节流，不计入重试预算）</translation>
    </message>
    <message>
        <source>paced %1 of %2</source>
        <translation>已节流 %1（共 %2）</translation>
    </message>
    <message>
        <source>paced %1</source>
        <translation>已节流 %1</translation>
    </message>
    <message>
        <source>Paced</source>
        <translation>已节流</translation>
    </message>
    <message>
        <source>Fallback</source>
        <translation>改用备用配置</translation>
    </message>
    <message>
        <source>this profile does not retry token limits</source>
        <translation>此服务商配置在达到 Token 上限时不重试</translation>
    </message>
    <message>
        <source>this profile does not retry rate limits</source>
        <translation>此服务商配置在遇到速率限制时不重试</translation>
    </message>
    <message>
        <source>Interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <source>declared limit</source>
        <translation>配置中的限制</translation>
    </message>
    <message>
        <source>the profile&apos;s declared limit: %1</source>
        <translation>配置中设定的限制：%1</translation>
    </message>
</context>
<context>
    <name>capwatch::session::SendTexts</name>
    <message>
        <source>?</source>
        <translation>?</translation>
    </message>
    <message>
        <source>Ready. Retries of your next send show here.</source>
        <translation>就绪。下次发送的重试情况将显示在这里。</translation>
    </message>
    <message>
        <source>Retrying: sending attempt %1…</source>
        <translation>正在重试：进行第 %1 次尝试…</translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation>正在发送…</translation>
    </message>
    <message>
        <source>Waiting to send attempt %1</source>
        <translation>等待进行第 %1 次尝试</translation>
    </message>
    <message>
        <source>Answer streaming in</source>
        <translation>正在接收流式回答</translation>
    </message>
    <message>
        <source>Answered</source>
        <translation>已回答</translation>
    </message>
    <message>
        <source>Answered after 1 retry</source>
        <translation>重试 1 次后已回答</translation>
    </message>
    <message>
        <source>Answered after %1 retries</source>
        <translation>重试 %1 次后已回答</translation>
    </message>
    <message>
        <source>Gave up: %1</source>
        <translation>已放弃：%1</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>第 %1 次（共 %2 次）</translation>
    </message>
    <message>
        <source>Attempt %1 of %2</source>
        <translation>第 %1 次尝试（共 %2 次）</translation>
    </message>
    <message>
        <source>%1 (HTTP %2)</source>
        <translation>%1（HTTP %2）</translation>
    </message>
    <message>
        <source>%1 used by the answer</source>
        <translation>回答使用了 %1</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 s of %2 s</source>
        <translation>%1 秒 / %2 秒</translation>
    </message>
    <message>
        <source>%1; cancelled after %2</source>
        <translation>%1；%2 后已取消</translation>
    </message>
    <message>
        <source>Pacing: sending in %1 s (the provider&apos;s window is full)</source>
        <translation>节流：%1 秒后发送（服务商额度窗口已满）</translation>
    </message>
    <message>
        <source>Pacing: sending in %1 s (the provider&apos;s request limit is reached)</source>
        <translation>节流：%1 秒后发送（已达到服务商的请求数上限）</translation>
    </message>
    <message>
        <source>Waiting for the provider…</source>
        <translation>正在等待服务商…</translation>
    </message>
    <message numerus="yes">
        <source>Retrying in %n s</source>
        <translation>
            <numerusform>%n 秒后重试</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Retrying in %n s: %1</source>
        <translation>
            <numerusform>%n 秒后重试：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 · retry in %2</source>
        <translation>%1 · %2 后重试</translation>
    </message>
    <message>
        <source>attempt %1 of %2 failed: </source>
        <translation>第 %1 次尝试（共 %2 次）失败：</translation>
    </message>
    <message>
        <source> (used %1, limit %2)</source>
        <translation>（已用 %1，上限 %2）</translation>
    </message>
    <message>
        <source>waiting %1 (%2) before attempt %3 of %4; %5 of the %6 budget left</source>
        <translation>等待 %1（%2），然后进行第 %3 次尝试（共 %4 次）；%6 的预算还剩 %5</translation>
    </message>
    <message>
        <source>answered on attempt %1 of %2</source>
        <translation>在第 %1 次尝试（共 %2 次）时得到回答</translation>
    </message>
    <message>
        <source> (%1 tokens)</source>
        <translation>（%1 个 token）</translation>
    </message>
    <message>
        <source>Nothing from the provider for %1</source>
        <translation>提供方已 %1 没有响应</translation>
    </message>
    <message>
        <source>pacing</source>
        <translation>限速等待中</translation>
    </message>
    <message>
        <source>sending</source>
        <translation>发送中</translation>
    </message>
    <message>
        <source>streaming</source>
        <translation>接收中</translation>
    </message>
    <message>
        <source>silent</source>
        <translation>无响应</translation>
    </message>
    <message>
        <source>waiting to retry</source>
        <translation>等待重试</translation>
    </message>
    <message>
        <source>answered</source>
        <translation>已回答</translation>
    </message>
    <message>
        <source>gave up</source>
        <translation>已放弃</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Held for %1 s: the provider&apos;s token window is full, and capwatch sends when it has room so that the cap is never hit. Send now sends it anyway (and shows the retry cycle if the provider refuses).</source>
        <translation>已暂缓 %1 秒：服务商的 Token 窗口已满，capwatch 会在窗口腾出空间后再发送，从而绝不触及上限。“立即发送”会照常发出（若服务商拒绝，则显示重试过程）。</translation>
    </message>
    <message>
        <source>Held for %1 s: the provider&apos;s request limit is reached, and capwatch sends when it has room so that the cap is never hit. Send now sends it anyway (and shows the retry cycle if the provider refuses).</source>
        <translation>已暂缓 %1 秒：已达到服务商的请求数上限，capwatch 会在窗口腾出空间后再发送，从而绝不触及上限。“立即发送”会照常发出（若服务商拒绝，则显示重试过程）。</translation>
    </message>
    <message>
        <source>%1; not waited: the send gave up</source>
        <translation>%1；未等待：该发送已放弃</translation>
    </message>
    <message>
        <source>The provider rejected the key: check the profile&apos;s key in Settings.</source>
        <translation>提供方拒绝了密钥：请在设置中检查该配置的密钥。</translation>
    </message>
    <message>
        <source>Out of credit at this provider: send it to %1, or top up the account.</source>
        <translation>此提供方余额不足：改发给 %1，或为账户充值。</translation>
    </message>
    <message>
        <source>Out of credit at this provider: top up the account, then retry.</source>
        <translation>此提供方余额不足：请为账户充值后重试。</translation>
    </message>
    <message>
        <source>The request is larger than the model accepts: trim the conversation or shorten the prompt.</source>
        <translation>请求超出了模型可接受的长度：请精简对话或缩短提示。</translation>
    </message>
    <message>
        <source>Capped until %1: %2.</source>
        <translation>已达上限，直到 %1：%2。</translation>
    </message>
    <message>
        <source>Rate-limited until %1: %2.</source>
        <translation>已被限速，直到 %1：%2。</translation>
    </message>
    <message>
        <source>Capped at this provider: %1.</source>
        <translation>已达此提供方的上限：%1。</translation>
    </message>
    <message>
        <source>Rate-limited at this provider: %1.</source>
        <translation>已被此提供方限速：%1。</translation>
    </message>
    <message>
        <source>The provider did not answer in time: try again later.</source>
        <translation>提供方未及时响应：请稍后再试。</translation>
    </message>
    <message>
        <source>The provider could not be reached: %1.</source>
        <translation>无法连接提供方：%1。</translation>
    </message>
    <message>
        <source>The provider is overloaded or failing: %1.</source>
        <translation>提供方过载或出错：%1。</translation>
    </message>
    <message>
        <source>The provider refused the request, and waiting will not change that: see Details.</source>
        <translation>提供方拒绝了请求，等待也无济于事：请查看详情。</translation>
    </message>
    <message>
        <source>The send failed.</source>
        <translation>发送失败。</translation>
    </message>
    <message>
        <source>The send failed: %1.</source>
        <translation>发送失败：%1。</translation>
    </message>
    <message>
        <source>The provider&apos;s cap resets at %1, later than the retries can reach: the retries go on unless you park it now, to be sent by itself at the reset.</source>
        <translation>提供方的上限将在 %1 重置，晚于重试所能等到的时间：除非现在暂存，否则重试会继续；暂存后将在重置时自动发出。</translation>
    </message>
    <message>
        <source>pacing: sending in %1 s, when the provider&apos;s window resets (it has %2 tokens left, this request needs about %3)</source>
        <translation>节流：%1 秒后发送，届时服务商的额度窗口将重置（剩余 %2 Token，本次请求约需 %3）</translation>
    </message>
    <message>
        <source>pacing: sending in %1 s, when the provider&apos;s request limit resets</source>
        <translation>节流：%1 秒后发送，届时服务商的请求数上限将重置</translation>
    </message>
    <message>
        <source>Decided by %1</source>
        <translation>判定规则：%1</translation>
    </message>
    <message>
        <source>Cut off at the output limit · %1 tokens</source>
        <translation>在输出上限处截断 · %1 个 token</translation>
    </message>
    <message>
        <source>Cut off at the output limit</source>
        <translation>在输出上限处截断</translation>
    </message>
    <message>
        <source>The answer was interrupted after %1 characters: what came is kept, and Continue asks for the rest.</source>
        <translation>回答在 %1 个字符后中断：已收到的内容会保留，“继续”会请求其余部分。</translation>
    </message>
    <message>
        <source>answer interrupted</source>
        <translation>回答中断</translation>
    </message>
    <message>
        <source>Interrupted after %1 characters</source>
        <translation>在 %1 个字符后中断</translation>
    </message>
    <message>
        <source>Empty answer: the output budget (%1 tokens) went to reasoning</source>
        <translation>空回答：输出预算（%1 个 token）都用在了推理上</translation>
    </message>
    <message>
        <source>Empty answer</source>
        <translation>空回答</translation>
    </message>
    <message>
        <source>the answer was cut off at the output limit (%1 tokens)</source>
        <translation>回答在输出上限处被截断（%1 个 token）</translation>
    </message>
    <message>
        <source>the answer was cut off at the output limit</source>
        <translation>回答在输出上限处被截断</translation>
    </message>
    <message>
        <source>the answer was interrupted after %1 characters</source>
        <translation>回答在 %1 个字符后中断</translation>
    </message>
    <message>
        <source>the answer is empty: its output budget (%1 tokens) went to reasoning</source>
        <translation>回答为空：其输出预算（%1 个 token）都用在了推理上</translation>
    </message>
    <message>
        <source>the answer is empty</source>
        <translation>回答为空</translation>
    </message>
    <message>
        <source>Pacing: sending in %1 s (%2)</source>
        <translation>节流：%1 秒后发送（%2）</translation>
    </message>
    <message>
        <source>Requests this minute: %1 of %2</source>
        <translation>本分钟请求数：%1 / %2</translation>
    </message>
    <message>
        <source>Tokens this minute: %1 of %2</source>
        <translation>本分钟 Token 数：%1 / %2</translation>
    </message>
    <message>
        <source>Requests today: %1 of %2</source>
        <translation>今日请求数：%1 / %2</translation>
    </message>
    <message>
        <source>Tokens today: %1 of %2</source>
        <translation>今日 Token 数：%1 / %2</translation>
    </message>
    <message>
        <source>Requests in flight: %1 of %2</source>
        <translation>进行中的请求：%1 / %2</translation>
    </message>
    <message>
        <source>%1 (%2 billed, %3 estimated)</source>
        <translation>%1（已计费 %2，预估 %3）</translation>
    </message>
    <message>
        <source>%1 billed</source>
        <translation>已计费 %1</translation>
    </message>
    <message>
        <source>%1 estimated</source>
        <translation>预估 %1</translation>
    </message>
    <message>
        <source>Spent today: %1 of %2; this send may cost up to %3</source>
        <translation>今日已花费：%1 / %2；本次发送最多可能花费 %3</translation>
    </message>
    <message>
        <source>Spent this month: %1 of %2; this send may cost up to %3</source>
        <translation>本月已花费：%1 / %2；本次发送最多可能花费 %3</translation>
    </message>
    <message>
        <source>Tokens today: %1 of %2; this send may use up to %3</source>
        <translation>今日 Token 数：%1 / %2；本次发送最多可能使用 %3</translation>
    </message>
    <message>
        <source>Tokens this month: %1 of %2; this send may use up to %3</source>
        <translation>本月 Token 数：%1 / %2；本次发送最多可能使用 %3</translation>
    </message>
    <message>
        <source>Held for %1 s: %2, as this profile declares for its provider (Settings → Providers), and capwatch sends when it has room. Send now sends it anyway.</source>
        <translation>已暂缓 %1 秒：%2，这是此配置为其服务商设定的限制（设置 → 服务商），capwatch 会在有余量时再发送。“立即发送”会照常发出。</translation>
    </message>
    <message>
        <source>pacing: sending in %1 s (%2, the profile&apos;s declared limit)</source>
        <translation>节流：%1 秒后发送（%2，配置中设定的限制）</translation>
    </message>
    <message>
        <source>Requests today: %1 of %2, resets at %3</source>
        <translation>今日请求数：%1 / %2，%3 重置</translation>
    </message>
    <message>
        <source>Tokens today: %1 of %2, resets at %3</source>
        <translation>今日 Token 数：%1 / %2，%3 重置</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ChartsModule</name>
    <message>
        <source>The charts module (%1) is not installed.</source>
        <translation>未安装图表模块（%1）。</translation>
    </message>
    <message>
        <source>The charts module %1 could not be loaded: %2</source>
        <translation>无法加载图表模块 %1：%2</translation>
    </message>
    <message>
        <source>it is of another version</source>
        <translation>其版本不匹配</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ChartsPlugin</name>
    <message>
        <source>This is not a chart.</source>
        <translation>这不是图表。</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ContextGauge</name>
    <message>
        <source>Context: %1 of %2 tokens</source>
        <translation>上下文：%1 / %2 Token</translation>
    </message>
    <message>
        <source>Context: %1 of %2 tokens: the next send does not fit</source>
        <translation>上下文：%1 / %2 Token，下一次发送将放不下</translation>
    </message>
    <message>
        <source>~%1 tokens (context window unknown)</source>
        <translation>约 %1 Token（上下文窗口未知）</translation>
    </message>
    <message>
        <source>(the oldest turn left out)</source>
        <translation>（已略去最早的一轮对话）</translation>
    </message>
    <message numerus="yes">
        <source>(%n oldest turns left out)</source>
        <translation>
            <numerusform>（已略去最早的 %n 轮对话）</numerusform>
        </translation>
    </message>
    <message>
        <source>The estimated tokens of the next request: the system prompt, the turns sent, the prompt and the answer&apos;s maximum tokens</source>
        <translation>下一个请求的预估 Token 数：系统提示词、随请求发送的历史对话、提示词以及回答的最大 Token 数</translation>
    </message>
    <message>
        <source>Trim…</source>
        <translation>裁剪…</translation>
    </message>
    <message>
        <source>Leave out the oldest turns from requests so that the next send fits; they stay in the conversation</source>
        <translation>在请求中略去最早的几轮对话，使下一次发送能够放下；这些对话仍保留在会话记录中</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ConversationController</name>
    <message>
        <source>Editing your last prompt: sending it replaces that prompt and its answer.</source>
        <translation>正在编辑上一条提示词：发送后将替换该提示词及其回答。</translation>
    </message>
    <message>
        <source>No model is set for %1, so nothing was sent. Enter the model&apos;s name in the provider settings; your prompt stays in the editor.</source>
        <translation>%1 未设置模型，因此没有发送任何内容。请在服务商设置中输入模型名称；您的提示词仍保留在输入框中。</translation>
    </message>
    <message>
        <source>No rules file was made: %1</source>
        <translation>未能创建规则文件：%1</translation>
    </message>
    <message>
        <source>A rules file with this answer&apos;s text was made: %1. Put its words under the kind of failure they mean; capwatch reads it from its next start.</source>
        <translation>已用此回复的文本创建规则文件：%1。请把其中的词语放到它们所代表的失败类别下；capwatch 下次启动时读取该文件。</translation>
    </message>
    <message>
        <source>Not sent: %1 The limit resets at %2.</source>
        <translation>未发送：%1 限额将于 %2 重置。</translation>
    </message>
    <message>
        <source>Parked until the limit resets at %1: %2.</source>
        <translation>已挂起，直至限额于 %1 重置：%2。</translation>
    </message>
    <message>
        <source>%1 requests a minute</source>
        <translation>每分钟 %1 个请求</translation>
    </message>
    <message>
        <source>%1 tokens a minute</source>
        <translation>每分钟 %1 个 Token</translation>
    </message>
    <message>
        <source>%1 requests a day</source>
        <translation>每日 %1 个请求</translation>
    </message>
    <message>
        <source>%1 tokens a day</source>
        <translation>每日 %1 个 Token</translation>
    </message>
    <message>
        <source>%1 requests at once</source>
        <translation>同时 %1 个请求</translation>
    </message>
    <message>
        <source>Kept: %1 for %2. Change it in Settings → Providers.</source>
        <translation>已为 %2 采用：%1。可在“设置 → 服务商”中更改。</translation>
    </message>
    <message>
        <source>%1 hit a rate limit and declares no limits; the provider&apos;s words suggest %2. Keep it, and capwatch paces sends before they are refused.</source>
        <translation>%1 触发了速率限制，且未设定任何限制；根据服务商的说明，限制应为 %2。采用此限制后，capwatch 会在发送被拒绝之前进行节流。</translation>
    </message>
    <message>
        <source>%1 hit a rate limit and declares no limits; the sends before it suggest %2. Keep it, and capwatch paces sends before they are refused.</source>
        <translation>%1 触发了速率限制，且未设定任何限制；根据此前的发送，限制约为 %2。采用此限制后，capwatch 会在发送被拒绝之前进行节流。</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ConversationListModel</name>
    <message>
        <source>had retries</source>
        <translation>有过重试</translation>
    </message>
    <message>
        <source>unanswered send</source>
        <translation>有未回答的发送</translation>
    </message>
    <message>
        <source>Untitled conversation</source>
        <translation>未命名对话</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>%1, %2, %3</source>
        <translation>%1，%2，%3</translation>
    </message>
    <message>
        <source>unread</source>
        <translation>未读</translation>
    </message>
    <message>
        <source>parked send</source>
        <translation>有已挂起的发送</translation>
    </message>
    <message>
        <source>Profile: %1</source>
        <translation>配置：%1</translation>
    </message>
    <message>
        <source>%1, profile %2</source>
        <translation>%1，配置 %2</translation>
    </message>
    <message>
        <source>sending</source>
        <translation>发送中</translation>
    </message>
    <message>
        <source>Cost: %1</source>
        <translation>费用：%1</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ConversationPresenter</name>
    <message>
        <source>Cancelled. Your prompt is back in the editor.</source>
        <translation>已取消。您的提示词已放回输入框。</translation>
    </message>
    <message>
        <source>Waiting for the provider…</source>
        <translation>正在等待服务商…</translation>
    </message>
    <message>
        <source>It goes out by itself when the provider&apos;s limit resets.</source>
        <translation>服务商额度重置后，它会自动发出。</translation>
    </message>
    <message>
        <source>Parked again: the limit had not reset yet. It goes out at the new reset.</source>
        <translation>已再次挂起：额度尚未重置。它将在新的额度重置时发出。</translation>
    </message>
    <message>
        <source>Parked automatically (Settings → Retries): it goes out by itself when the provider&apos;s limit resets.</source>
        <translation>已自动挂起（设置 → 重试）：服务商额度重置后，它会自动发出。</translation>
    </message>
    <message>
        <source>Sent again: see below</source>
        <translation>已重新发送：见下方</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Send now</source>
        <translation>立即发送</translation>
    </message>
    <message>
        <source>Send it now, before the reset: the provider may refuse it again</source>
        <translation>在额度重置前立即发送：服务商可能会再次拒绝</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <source>Take it out of the queue and put it in the prompt editor</source>
        <translation>将其移出队列并放回输入框</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Take it out of the queue: it stays a failed send you can retry</source>
        <translation>将其移出队列：它仍是一次可重试的失败发送</translation>
    </message>
    <message>
        <source>Sending now that the limit reset; the answer shows here when it comes.</source>
        <translation>额度已重置，正在发送；回答到达后将显示在这里。</translation>
    </message>
    <message>
        <source>Park it: it goes out by itself when the provider&apos;s limit resets</source>
        <translation>挂起：服务商额度重置后会自动发出</translation>
    </message>
    <message>
        <source>Retry now</source>
        <translation>立即重试</translation>
    </message>
    <message>
        <source>Send the failed prompt again now</source>
        <translation>立即重新发送失败的提示词</translation>
    </message>
    <message>
        <source>%1 prompt + %2 completion tokens</source>
        <translation>提示词 %1 + 回答 %2 Token</translation>
    </message>
    <message>
        <source>%1 prompt tokens</source>
        <translation>提示词 %1 Token</translation>
    </message>
    <message>
        <source>%1 completion tokens</source>
        <translation>回答 %1 Token</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 Token</translation>
    </message>
    <message>
        <source>This conversation is larger than the model&apos;s context window (%1 of %2 tokens), and leaving out older turns would not make it fit: shorten the prompt or lower the maximum tokens.</source>
        <translation>此对话超出了模型的上下文窗口（%1 / %2 Token），即使略去较早的几轮对话也放不下：请缩短提示词或调低最大 Token 数。</translation>
    </message>
    <message>
        <source>the oldest turn</source>
        <translation>最早的一轮对话</translation>
    </message>
    <message numerus="yes">
        <source>the %n oldest turns</source>
        <translation>
            <numerusform>最早的 %n 轮对话</numerusform>
        </translation>
    </message>
    <message>
        <source>This conversation is larger than the model&apos;s context window (%1 of %2 tokens). Trim and resend leaves out %3 (~%4 tokens); they stay in the conversation.</source>
        <translation>此对话超出了模型的上下文窗口（%1 / %2 Token）。“裁剪并重新发送”会略去%3（约 %4 Token）；这些内容仍保留在对话中。</translation>
    </message>
    <message>
        <source>Trim and resend</source>
        <translation>裁剪并重新发送</translation>
    </message>
    <message>
        <source>Leave out the oldest turns from requests and send the prompt again</source>
        <translation>在请求中略去最早的几轮对话，并重新发送提示词</translation>
    </message>
    <message>
        <source>The oldest turn (~%1 tokens) was left out automatically to fit the context window.</source>
        <translation>为放入上下文窗口，已自动略去最早的一轮对话（约 %1 Token）。</translation>
    </message>
    <message>
        <source>The oldest turn (~%1 tokens) is left out of requests to fit the context window.</source>
        <translation>为放入上下文窗口，请求中不再包含最早的一轮对话（约 %1 Token）。</translation>
    </message>
    <message numerus="yes">
        <source>%n oldest turns (~%1 tokens) were left out automatically to fit the context window.</source>
        <translation>
            <numerusform>为放入上下文窗口，已自动略去最早的 %n 轮对话（约 %1 Token）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n oldest turns (~%1 tokens) are left out of requests to fit the context window.</source>
        <translation>
            <numerusform>为放入上下文窗口，请求中不再包含最早的 %n 轮对话（约 %1 Token）。</numerusform>
        </translation>
    </message>
    <message>
        <source>via %1</source>
        <translation>经由 %1</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1 was capped; sent to %2 instead</source>
        <translation>%1 已达上限；已改为发送到 %2</translation>
    </message>
    <message>
        <source>Waiting for %1…</source>
        <translation>正在等待 %1…</translation>
    </message>
    <message>
        <source>Send to %1 instead</source>
        <translation>改为发送到 %1</translation>
    </message>
    <message>
        <source>Send the prompt to the profile %1, with its own endpoint, key and limits</source>
        <translation>将提示词发送到配置 %1，使用其自己的端点、密钥和额度限制</translation>
    </message>
    <message>
        <source>Asks first: the key would go over plain HTTP, unencrypted</source>
        <translation>会先询问：密钥将通过未加密的普通 HTTP 发送</translation>
    </message>
    <message>
        <source>It goes out once you agree: Send now asks first.</source>
        <translation>您同意后即会发出：“立即发送”会先询问。</translation>
    </message>
    <message>
        <source>The provider&apos;s limit has reset: send the prompt now</source>
        <translation>服务商额度已重置：立即发送该提示词</translation>
    </message>
    <message>
        <source>Not sent yet: %1.</source>
        <translation>尚未发送：%1。</translation>
    </message>
    <message>
        <source>Held by a limit: %1. It goes out by itself when the limit resets.</source>
        <translation>因限制暂缓：%1。限制重置后会自动发送。</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ConversationTotal</name>
    <message>
        <source>This conversation: %1 tokens</source>
        <translation>本对话：%1 Token</translation>
    </message>
    <message>
        <source>This conversation: %1 · %2 tokens</source>
        <translation>本对话：%1 · %2 Token</translation>
    </message>
    <message>
        <source>What the usage ledger counted for this conversation. Attempts: %1; tokens (prompt and completion): %2.</source>
        <translation>用量账本为本对话统计的用量。尝试次数：%1；Token（提示词和回答）：%2。</translation>
    </message>
    <message>
        <source>Answered attempts with no known price: %1.</source>
        <translation>价格未知的已回答尝试：%1。</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ConversationView</name>
    <message>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>Your messages and the assistant&apos;s answers, oldest first. Text can be selected and copied.</source>
        <translation>您的消息和助手的回答，按时间先后排列。文本可以选中和复制。</translation>
    </message>
    <message>
        <source>You</source>
        <translation>您</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>(incomplete)</source>
        <translation>（不完整）</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message numerus="yes">
        <source>… %n more characters not shown (the export has all of them)</source>
        <translation>
            <numerusform>… 另有 %n 个字符未显示（导出内容包含全部字符）</numerusform>
        </translation>
    </message>
    <message>
        <source>This answer is too long to show in full. All of it is kept: export the conversation to read the rest.</source>
        <translation>此回答过长，无法完整显示。全部内容均已保留：导出对话即可阅读其余部分。</translation>
    </message>
    <message>
        <source>Image not loaded: %1</source>
        <translation>图像未加载：%1</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy this answer as received (Markdown)</source>
        <translation>按收到的原样复制此回答（Markdown）</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <source>Ask again for an answer to the same conversation</source>
        <translation>针对同一对话重新请求回答</translation>
    </message>
    <message>
        <source>Edit and resend</source>
        <translation>编辑并重新发送</translation>
    </message>
    <message>
        <source>Put this prompt back in the editor; sending replaces it and its answer</source>
        <translation>将此提示词放回输入框；发送后将替换它及其回答</translation>
    </message>
    <message>
        <source>Parked</source>
        <translation>已挂起</translation>
    </message>
    <message>
        <source>Hide details</source>
        <translation>隐藏详情</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>The provider&apos;s answer as received, with the endpoint, the status and the attempts</source>
        <translation>提供方的原始响应，含端点、状态和尝试次数</translation>
    </message>
    <message>
        <source>Copy details</source>
        <translation>复制详情</translation>
    </message>
    <message>
        <source>Copy the provider&apos;s answer and the attempts as plain text</source>
        <translation>以纯文本复制提供方的响应和尝试记录</translation>
    </message>
    <message>
        <source>Make a rules file with this answer&apos;s text, to be read as another kind of failure from the next start on</source>
        <translation>用此回复的文本创建规则文件，从下次启动起将其识别为另一种失败</translation>
    </message>
    <message>
        <source>Wrong? Add a rule…</source>
        <translation>判断有误？添加规则…</translation>
    </message>
    <message>
        <source>How rules work</source>
        <translation>规则说明</translation>
    </message>
    <message>
        <source>Continued here: the words after this mark came with Continue</source>
        <translation>从这里续写：此标记之后的文字来自“继续”</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Ask the model to go on where this answer stopped; what it adds joins this answer</source>
        <translation>让模型从这个回答停下的地方接着写；新写的内容接在这个回答后面</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::DemoBanner</name>
    <message>
        <source>&amp;Configure a provider…</source>
        <translation>配置服务商(&amp;C)…</translation>
    </message>
    <message>
        <source>Demo provider notice</source>
        <translation>演示服务商提示</translation>
    </message>
    <message>
        <source>Open the provider settings</source>
        <translation>打开服务商设置</translation>
    </message>
    <message>
        <source>You are chatting with capwatch&apos;s built-in demo provider, no account needed. It allows 6,000 tokens a minute: after a few quick messages capwatch holds the next one until the window has room, and Send now sends it anyway, into a real retry cycle.</source>
        <translation>您正在与 capwatch 的内置演示服务商聊天，无需账户。它每分钟允许 6000 个 Token：快速发送几条消息后，capwatch 会暂缓下一条，直到窗口腾出空间；点击“立即发送”则照常发出，您将看到真实的重试过程。</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ExportAllDialog</name>
    <message>
        <source>Export all retry logs</source>
        <translation>导出所有重试日志</translation>
    </message>
    <message>
        <source>From</source>
        <translation>起始日期</translation>
    </message>
    <message>
        <source>To</source>
        <translation>截止日期</translation>
    </message>
    <message>
        <source>&amp;From:</source>
        <translation>起始日期(&amp;F)：</translation>
    </message>
    <message>
        <source>&amp;To (included):</source>
        <translation>截止日期（含当天）(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Choose file…</source>
        <translation>选择文件(&amp;C)…</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::HistoryBanner</name>
    <message>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
    <message>
        <source>The history database could not be read (%1). It was moved to %2 and a new one was started.</source>
        <translation>无法读取历史数据库（%1）。它已被移至 %2，并已新建一个数据库。</translation>
    </message>
    <message>
        <source>The history database %1 was made by a newer capwatch; history is off for this run (nothing is written to it).</source>
        <translation>历史数据库 %1 由较新版本的 capwatch 创建；本次运行已停用历史记录（不会向其写入任何内容）。</translation>
    </message>
    <message>
        <source>The history database %1 could not be opened (%2); history is off for this run: nothing is kept.</source>
        <translation>无法打开历史数据库 %1（%2）；本次运行已停用历史记录：不会保存任何内容。</translation>
    </message>
    <message>
        <source>History notice</source>
        <translation>历史记录提示</translation>
    </message>
    <message>
        <source>Copy &amp;path</source>
        <translation>复制路径(&amp;A)</translation>
    </message>
    <message>
        <source>Copy the path of the moved database</source>
        <translation>复制已移动数据库的路径</translation>
    </message>
    <message>
        <source>Close the notice</source>
        <translation>关闭提示</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::HistoryController</name>
    <message>
        <source>The conversation could not be opened: %1</source>
        <translation>无法打开对话：%1</translation>
    </message>
    <message>
        <source>History is off.</source>
        <translation>历史记录已停用。</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export all retry logs</source>
        <translation>导出所有重试日志</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n retry records</source>
        <translation>
            <numerusform>已导出 %n 条重试记录</numerusform>
        </translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>The retry logs were not written: %1</source>
        <translation>未能写入重试日志：%1</translation>
    </message>
    <message>
        <source>History cleared</source>
        <translation>已清除历史记录</translation>
    </message>
    <message>
        <source>Private: nothing is kept</source>
        <translation>隐私模式：不保存任何内容</translation>
    </message>
    <message>
        <source>Started with --private: this run&apos;s conversations are kept in memory only and are gone when capwatch quits.</source>
        <translation>以 --private 启动：本次运行的对话仅保存在内存中，退出 capwatch 后即会消失。</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::HistorySettingsDialog</name>
    <message>
        <source>&amp;Keep everything</source>
        <translation>全部保留(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Delete conversations older than</source>
        <translation>删除早于以下天数的对话(&amp;D)</translation>
    </message>
    <message>
        <source>C&amp;lear history…</source>
        <translation>清除历史记录(&amp;L)…</translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <source>Keep conversations</source>
        <translation>对话保留</translation>
    </message>
    <message>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <source>Days to keep conversations</source>
        <translation>对话保留天数</translation>
    </message>
    <message>
        <source>This is a private run: nothing is kept on disk, so there is nothing to delete.</source>
        <translation>本次以隐私模式运行：磁盘上不保存任何内容，因此没有可删除的内容。</translation>
    </message>
    <message>
        <source>Clear history</source>
        <translation>清除历史记录</translation>
    </message>
    <message>
        <source>Delete every stored conversation with its messages and retry log? This cannot be undone.</source>
        <translation>要删除所有已保存的对话及其消息和重试日志吗？此操作无法撤销。</translation>
    </message>
    <message>
        <source>&amp;Clear history</source>
        <translation>清除历史记录(&amp;C)</translation>
    </message>
    <message>
        <source>Also clear the &amp;usage ledger</source>
        <translation>同时清除用量账本(&amp;U)</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::HistorySidebar</name>
    <message>
        <source>Delete conversation</source>
        <translation>删除对话</translation>
    </message>
    <message>
        <source>Delete “%1” with its messages and retry log? This cannot be undone.</source>
        <translation>要删除“%1”及其消息和重试日志吗？此操作无法撤销。</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>打开(&amp;O)</translation>
    </message>
    <message>
        <source>History is off.</source>
        <translation>历史记录已停用。</translation>
    </message>
    <message>
        <source>No conversation contains “%1”.</source>
        <translation>没有包含“%1”的对话。</translation>
    </message>
    <message>
        <source>No conversations yet. They are kept here after you send a prompt.</source>
        <translation>还没有对话。发送提示词后，对话会保存在这里。</translation>
    </message>
    <message>
        <source>&amp;New conversation</source>
        <translation>新建对话(&amp;N)</translation>
    </message>
    <message>
        <source>New conversation (%1)</source>
        <translation>新建对话（%1）</translation>
    </message>
    <message>
        <source>Start an empty conversation; the open one stays in the list</source>
        <translation>开始一个空白对话；当前打开的对话仍保留在列表中</translation>
    </message>
    <message>
        <source>&amp;Find in conversations</source>
        <translation>在对话中查找(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>重命名(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>删除(&amp;D)…</translation>
    </message>
    <message>
        <source>Search conversations (%1)</source>
        <translation>搜索对话（%1）</translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <source>Finds conversations by the words in their messages as you type; Esc shows all</source>
        <translation>输入时即按消息中的词语查找对话；按 Esc 显示全部</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>对话列表</translation>
    </message>
    <message>
        <source>Stored conversations, newest first</source>
        <translation>已保存的对话，最新的在前</translation>
    </message>
    <message>
        <source>Conversation history</source>
        <translation>对话历史记录</translation>
    </message>
    <message>
        <source>Opening the history…</source>
        <translation>正在打开历史记录…</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::InsightsCard</name>
    <message>
        <source>The numbers are in the table.</source>
        <translation>数据见表格。</translation>
    </message>
    <message>
        <source>Nothing in this range.</source>
        <translation>此时间范围内没有数据。</translation>
    </message>
    <message>
        <source>There is no chart to export.</source>
        <translation>没有可导出的图表。</translation>
    </message>
    <message>
        <source>The image could not be written.</source>
        <translation>未能写入图像。</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>CSV 表格 (*.csv)</translation>
    </message>
    <message>
        <source>Export %1</source>
        <translation>导出“%1”</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>表格</translation>
    </message>
    <message>
        <source>Show the numbers of this chart as a table</source>
        <translation>以表格显示此图表的数据</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>PNG image…</source>
        <translation>PNG 图像…</translation>
    </message>
    <message>
        <source>SVG image…</source>
        <translation>SVG 图像…</translation>
    </message>
    <message>
        <source>CSV table…</source>
        <translation>CSV 表格…</translation>
    </message>
    <message>
        <source>Drawing the chart…</source>
        <translation>正在绘制图表…</translation>
    </message>
    <message>
        <source>Table of %1</source>
        <translation>%1 的表格</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::InsightsDigest</name>
    <message>
        <source>Day</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Week from</source>
        <translation>周（起始日）</translation>
    </message>
    <message>
        <source>Month</source>
        <translation>月份</translation>
    </message>
    <message>
        <source>Tokens by model</source>
        <translation>Token 用量（按模型）</translation>
    </message>
    <message>
        <source>Tokens by profile</source>
        <translation>Token 用量（按配置）</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Token 数</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>Billed by the provider</source>
        <translation>服务商计费</translation>
    </message>
    <message>
        <source>Estimated from prices</source>
        <translation>按价格估算</translation>
    </message>
    <message>
        <source>Time lost to caps</source>
        <translation>因上限损失的时间</translation>
    </message>
    <message>
        <source>Minutes</source>
        <translation>分钟</translation>
    </message>
    <message>
        <source>Retry waits</source>
        <translation>重试等待</translation>
    </message>
    <message>
        <source>Pacing</source>
        <translation>节流</translation>
    </message>
    <message>
        <source>Parked</source>
        <translation>挂起</translation>
    </message>
    <message>
        <source>Time lost by profile</source>
        <translation>损失时间（按配置）</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Refusals by category</source>
        <translation>拒绝次数（按类别）</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Refused attempts</source>
        <translation>被拒绝的尝试</translation>
    </message>
    <message>
        <source>Where the waits came from</source>
        <translation>等待时长的来源</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Time waited</source>
        <translation>等待时长</translation>
    </message>
    <message>
        <source>Waits</source>
        <translation>等待次数</translation>
    </message>
    <message>
        <source>How sends ended</source>
        <translation>发送结果</translation>
    </message>
    <message>
        <source>Sends</source>
        <translation>发送次数</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Answered first time</source>
        <translation>首次尝试即回答</translation>
    </message>
    <message>
        <source>Answered after retries</source>
        <translation>重试后回答</translation>
    </message>
    <message>
        <source>Parked, then answered</source>
        <translation>挂起后回答</translation>
    </message>
    <message>
        <source>Not answered</source>
        <translation>未回答</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::InsightsTableModel</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::InsightsWindow</name>
    <message>
        <source>Insights — capwatch</source>
        <translation>统计 — capwatch</translation>
    </message>
    <message>
        <source>&amp;Range:</source>
        <translation>时间范围(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;Filter:</source>
        <translation>筛选(&amp;F)：</translation>
    </message>
    <message>
        <source>&amp;Tokens by:</source>
        <translation>Token 分组(&amp;T)：</translation>
    </message>
    <message>
        <source>Spending limits</source>
        <translation>用量限额</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>最近 30 天</translation>
    </message>
    <message>
        <source>Last 90 days</source>
        <translation>最近 90 天</translation>
    </message>
    <message>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Dates…</source>
        <translation>自定义日期…</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>First day</source>
        <translation>起始日期</translation>
    </message>
    <message>
        <source>Last day</source>
        <translation>结束日期</translation>
    </message>
    <message>
        <source>This run keeps no history (--private): there is nothing to sum.</source>
        <translation>本次运行不保存历史记录（--private）：没有可汇总的数据。</translation>
    </message>
    <message>
        <source>Nothing was sent in this range. capwatch counts every attempt, of this window and of capwatch-cli, in its history.</source>
        <translation>此时间范围内没有任何发送。capwatch 会在历史记录中统计每一次尝试，包括本窗口和 capwatch-cli 的尝试。</translation>
    </message>
    <message>
        <source>Sends: %1</source>
        <translation>发送：%1 次</translation>
    </message>
    <message>
        <source>tokens: %1</source>
        <translation>Token：%1</translation>
    </message>
    <message>
        <source>billed: %1</source>
        <translation>已计费：%1</translation>
    </message>
    <message>
        <source>estimated: %1</source>
        <translation>预估：%1</translation>
    </message>
    <message>
        <source>lost to caps: %1</source>
        <translation>因上限损失：%1</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>All profiles</source>
        <translation>全部配置</translation>
    </message>
    <message>
        <source>All models</source>
        <translation>全部模型</translation>
    </message>
    <message>
        <source>Back to the chat</source>
        <translation>返回对话</translation>
    </message>
    <message>
        <source>Back to the conversation (Esc or Ctrl+I)</source>
        <translation>返回对话（Esc 或 Ctrl+I）</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::Keychain</name>
    <message>
        <source>system keychain</source>
        <translation>系统密钥环</translation>
    </message>
    <message>
        <source>the window is closing</source>
        <translation>窗口正在关闭</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::LimitQuestion</name>
    <message>
        <source>Over your spending limit?</source>
        <translation>超出用量限额？</translation>
    </message>
    <message>
        <source>Over the provider&apos;s daily limit?</source>
        <translation>超出服务商的每日限制？</translation>
    </message>
    <message>
        <source>%1 declares a daily limit for its provider, and it is reached. %2.</source>
        <translation>%1 为其服务商设定的每日限制已达到。%2。</translation>
    </message>
    <message>
        <source>The limit resets at %1. Limits are set in Settings → Providers.</source>
        <translation>限额将于 %1 重置。限额在“设置 → 服务商”中设定。</translation>
    </message>
    <message>
        <source>Send &amp;anyway</source>
        <translation>仍然发送(&amp;A)</translation>
    </message>
    <message>
        <source>Send when the limit &amp;resets at %1</source>
        <translation>在限额于 %1 重置时发送(&amp;R)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>This send may cross a spending limit of the profile %1. %2.</source>
        <translation>本次发送可能超出配置 %1 的用量限额。%2。</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::LimitsBox</name>
    <message>
        <source>No limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>Spending limits</source>
        <translation>用量限额</translation>
    </message>
    <message>
        <source>Checked before each send against the most it could use, counting all of this profile&apos;s sends (capwatch-cli&apos;s too) per calendar day and month. A cost needs the model&apos;s price.</source>
        <translation>每次发送前按其可能的最大用量检查；统计此配置的所有发送（包括 capwatch-cli 的），按自然日和自然月计。费用需要模型的价格。</translation>
    </message>
    <message>
        <source>Limits the provider states but never sends</source>
        <translation>服务商公布但从不在响应中告知的限制</translation>
    </message>
    <message>
        <source>The provider&apos;s published rate limits, which its answers do not tell: capwatch paces sends to stay within them. A send that would pass a daily one is held as a spending limit holds it.</source>
        <translation>服务商公布的速率限制，其响应中不会告知：capwatch 会节流发送，使其不超出这些限制。会超出每日限制的发送，会像超出用量限额一样被暂缓。</translation>
    </message>
    <message>
        <source>Ask</source>
        <translation>询问</translation>
    </message>
    <message>
        <source>Park until it resets</source>
        <translation>挂起至重置</translation>
    </message>
    <message>
        <source>Refuse</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Tokens per day:</source>
        <translation>每日 Token 数：</translation>
    </message>
    <message>
        <source>Spending limit: tokens per day</source>
        <translation>用量限额：每日 Token 数</translation>
    </message>
    <message>
        <source>The most tokens (prompt and answer) this profile&apos;s sends may use in a calendar day</source>
        <translation>此配置的发送在一个自然日内最多可用的 Token 数（提示和回答）</translation>
    </message>
    <message>
        <source>Tokens per month:</source>
        <translation>每月 Token 数：</translation>
    </message>
    <message>
        <source>Spending limit: tokens per month</source>
        <translation>用量限额：每月 Token 数</translation>
    </message>
    <message>
        <source>The most tokens (prompt and answer) this profile&apos;s sends may use in a calendar month</source>
        <translation>此配置的发送在一个自然月内最多可用的 Token 数（提示和回答）</translation>
    </message>
    <message>
        <source>Cost per day:</source>
        <translation>每日费用：</translation>
    </message>
    <message>
        <source>Spending limit: cost per day</source>
        <translation>用量限额：每日费用</translation>
    </message>
    <message>
        <source>The most this profile&apos;s sends may cost in a calendar day, in USD, by the model&apos;s price</source>
        <translation>此配置的发送在一个自然日内最多可花费的金额（美元），按模型价格计算</translation>
    </message>
    <message>
        <source>Cost per month:</source>
        <translation>每月费用：</translation>
    </message>
    <message>
        <source>Spending limit: cost per month</source>
        <translation>用量限额：每月费用</translation>
    </message>
    <message>
        <source>The most this profile&apos;s sends may cost in a calendar month, in USD, by the model&apos;s price</source>
        <translation>此配置的发送在一个自然月内最多可花费的金额（美元），按模型价格计算</translation>
    </message>
    <message>
        <source>When a send would cross a limit:</source>
        <translation>发送将超出限额时：</translation>
    </message>
    <message>
        <source>When a send would cross a limit</source>
        <translation>发送将超出限额时</translation>
    </message>
    <message>
        <source>Ask: offer to send anyway or when the limit resets. Park: hold the send until the limit resets, without asking. Refuse: do not send; the prompt stays in the editor</source>
        <translation>询问：提供仍然发送或在限额重置时发送的选项。挂起：不询问，将发送挂起至限额重置。拒绝：不发送；提示保留在编辑框中</translation>
    </message>
    <message>
        <source>Requests per minute:</source>
        <translation>每分钟请求数：</translation>
    </message>
    <message>
        <source>Provider&apos;s limit: requests per minute</source>
        <translation>服务商限制：每分钟请求数</translation>
    </message>
    <message>
        <source>The most requests the provider takes in any 60 seconds</source>
        <translation>服务商在任意 60 秒内接受的最多请求数</translation>
    </message>
    <message>
        <source>Tokens per minute:</source>
        <translation>每分钟 Token 数：</translation>
    </message>
    <message>
        <source>Provider&apos;s limit: tokens per minute</source>
        <translation>服务商限制：每分钟 Token 数</translation>
    </message>
    <message>
        <source>The most tokens the provider takes in any 60 seconds</source>
        <translation>服务商在任意 60 秒内接受的最多 Token 数</translation>
    </message>
    <message>
        <source>Requests per day:</source>
        <translation>每日请求数：</translation>
    </message>
    <message>
        <source>Provider&apos;s limit: requests per day</source>
        <translation>服务商限制：每日请求数</translation>
    </message>
    <message>
        <source>The most requests the provider takes in a day (until midnight, local time)</source>
        <translation>服务商在一天内（至本地时间午夜）接受的最多请求数</translation>
    </message>
    <message>
        <source>Provider&apos;s limit: tokens per day</source>
        <translation>服务商限制：每日 Token 数</translation>
    </message>
    <message>
        <source>The most tokens the provider takes in a day (until midnight, local time)</source>
        <translation>服务商在一天内（至本地时间午夜）接受的最多 Token 数</translation>
    </message>
    <message>
        <source>Requests at once:</source>
        <translation>同时请求数：</translation>
    </message>
    <message>
        <source>Provider&apos;s limit: requests in flight</source>
        <translation>服务商限制：同时进行的请求数</translation>
    </message>
    <message>
        <source>The most requests the provider takes at the same time (counted within one capwatch window or capwatch-cli run)</source>
        <translation>服务商同时接受的最多请求数（在一个 capwatch 窗口或一次 capwatch-cli 运行内计数）</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::MainMenus</name>
    <message>
        <source>&amp;Export retry log…</source>
        <translation>导出重试日志(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Copy retry log as text</source>
        <translation>将重试日志复制为文本(&amp;C)</translation>
    </message>
    <message>
        <source>Export &amp;conversation as Markdown…</source>
        <translation>将对话导出为 Markdown(&amp;M)…</translation>
    </message>
    <message>
        <source>Export &amp;all retry logs…</source>
        <translation>导出所有重试日志(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;History…</source>
        <translation>历史记录(&amp;H)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Provider and retries…</source>
        <translation>服务商和重试(&amp;P)…</translation>
    </message>
    <message>
        <source>&amp;About capwatch</source>
        <translation>关于 capwatch(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>设置(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>About capwatch</source>
        <translation>关于 capwatch</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;capwatch&lt;/b&gt; %1&lt;/p&gt;&lt;p&gt;A chat client for OpenAI-compatible providers with strict token caps. It retries token-limit errors by a strict, visible policy: at most %2 attempts, waits of at most %3 s, %4 s in all.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;capwatch&lt;/b&gt; %1&lt;/p&gt;&lt;p&gt;一款面向设有严格 Token 上限的 OpenAI 兼容服务商的聊天客户端。它按照严格且可见的策略重试 Token 上限错误：最多尝试 %2 次，每次等待不超过 %3 秒，总计不超过 %4 秒。&lt;/p&gt;</translation>
    </message>
    <message numerus="yes">
        <source>Retry log exported to %1 (%n records)</source>
        <translation>
            <numerusform>重试日志已导出到 %1（%n 条记录）</numerusform>
        </translation>
    </message>
    <message>
        <source>Conversation exported to %1</source>
        <translation>对话已导出到 %1</translation>
    </message>
    <message>
        <source>capwatch conversation</source>
        <translation>capwatch 对话</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>端点</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export retry log</source>
        <translation>导出重试日志</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>The retry log was not written: %1</source>
        <translation>未能写入重试日志：%1</translation>
    </message>
    <message>
        <source>Export conversation</source>
        <translation>导出对话</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>The conversation was not written: %1</source>
        <translation>未能写入对话：%1</translation>
    </message>
    <message numerus="yes">
        <source>Retry log copied (%n records)</source>
        <translation>
            <numerusform>已复制重试日志（%n 条记录）</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Insights</source>
        <translation>统计(&amp;I)</translation>
    </message>
    <message>
        <source>Where the time and the money go, in charts</source>
        <translation>以图表展示时间和费用的去向</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::MainWindow</name>
    <message>
        <source>capwatch</source>
        <translation>capwatch</translation>
    </message>
    <message>
        <source>&amp;Timeline</source>
        <translation>时间线(&amp;I)</translation>
    </message>
    <message>
        <source>Retry &amp;log</source>
        <translation>重试日志(&amp;L)</translation>
    </message>
    <message>
        <source>Retry history</source>
        <translation>重试历史</translation>
    </message>
    <message>
        <source>Retry log</source>
        <translation>重试日志</translation>
    </message>
    <message>
        <source>Every attempt and wait of this session</source>
        <translation>本次会话中的每次尝试和等待</translation>
    </message>
    <message>
        <source>The provider settings changed, so the send in progress was stopped.</source>
        <translation>服务商设置已更改，正在进行的发送已停止。</translation>
    </message>
    <message>
        <source>Answer copied</source>
        <translation>已复制回答</translation>
    </message>
    <message>
        <source>capwatch (private)</source>
        <translation>capwatch（隐私模式）</translation>
    </message>
    <message>
        <source>The settings of the fallback profile %1 changed, so the send in progress was stopped.</source>
        <translation>备用配置 %1 的设置已更改，因此已停止正在进行的发送。</translation>
    </message>
    <message>
        <source>Quit capwatch</source>
        <translation>退出 capwatch</translation>
    </message>
    <message>
        <source>Quit while sends are not done?</source>
        <translation>仍有请求未完成，确定退出？</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Don&apos;t ask again</source>
        <translation>不再询问</translation>
    </message>
    <message numerus="yes">
        <source>%n rules file(s) left out: %1. capwatch reads failures with its built-in rules and your other files.</source>
        <translation>
            <numerusform>已跳过 %n 个规则文件：%1。capwatch 使用内置规则和您的其他文件识别失败。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ParkedQueueModel</name>
    <message>
        <source>%1 of %2</source>
        <translation>第 %1 次（共 %2 次）</translation>
    </message>
    <message>
        <source>Times this send was parked in a row: at most %1</source>
        <translation>此发送连续挂起的次数：最多 %1 次</translation>
    </message>
    <message>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>服务商</translation>
    </message>
    <message>
        <source>Parked until</source>
        <translation>挂起至</translation>
    </message>
    <message>
        <source>In</source>
        <translation>剩余时间</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Parks</source>
        <translation>挂起次数</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ParkedQueueView</name>
    <message>
        <source>Nothing is parked. When a provider&apos;s limit resets later than the retries can wait, a send can wait here for the reset and go out by itself: choose &quot;Send at&quot; on its card, or let Settings → Retries park it automatically.</source>
        <translation>没有已挂起的发送。当服务商的额度重置时间晚于重试所能等待的时间时，发送可以在这里等待额度重置，然后自动发出：在其卡片上选择“定时发送”，或在“设置 → 重试”中让它自动挂起。</translation>
    </message>
    <message>
        <source>Open conversation</source>
        <translation>打开对话</translation>
    </message>
    <message>
        <source>Send now</source>
        <translation>立即发送</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Parked sends</source>
        <translation>已挂起的发送</translation>
    </message>
    <message>
        <source>Every parked send of every conversation, the next to go out first. Enter opens its conversation.</source>
        <translation>所有对话中已挂起的全部发送，最先发出的在前。按 Enter 打开其所属对话。</translation>
    </message>
    <message>
        <source>Nothing is parked</source>
        <translation>没有已挂起的发送</translation>
    </message>
    <message>
        <source>Show the selected send&apos;s conversation</source>
        <translation>显示所选发送所属的对话</translation>
    </message>
    <message>
        <source>Send the selected parked send now, before its provider&apos;s reset</source>
        <translation>在服务商额度重置前立即发送所选的已挂起发送</translation>
    </message>
    <message>
        <source>Take the selected send out of the queue; it stays a failed send you can retry</source>
        <translation>将所选发送移出队列；它仍是一次可重试的失败发送</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>队列</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ParkingController</name>
    <message>
        <source>The parked send was answered.</source>
        <translation>已挂起的发送已得到回答。</translation>
    </message>
    <message>
        <source>The parked send hit the limit again and waits for the next reset.</source>
        <translation>已挂起的发送再次达到上限，正在等待下一次额度重置。</translation>
    </message>
    <message>
        <source>The parked send failed; its prompt is kept.</source>
        <translation>已挂起的发送失败；其提示词已保留。</translation>
    </message>
    <message>
        <source>capwatch</source>
        <translation>capwatch</translation>
    </message>
    <message>
        <source>The send was answered in its conversation.</source>
        <translation>该发送已在其对话中得到回答。</translation>
    </message>
    <message>
        <source>The send hit the limit and was parked until the provider&apos;s reset.</source>
        <translation>该发送达到上限，已挂起至服务商额度重置。</translation>
    </message>
    <message>
        <source>The send was stopped; its prompt is kept.</source>
        <translation>该发送已停止；其提示词已保留。</translation>
    </message>
    <message>
        <source>The send failed; its prompt is kept.</source>
        <translation>该发送失败；其提示词已保留。</translation>
    </message>
    <message>
        <source>&amp;Queue (%1)</source>
        <translation>队列（%1）(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Queue</source>
        <translation>队列(&amp;Q)</translation>
    </message>
    <message>
        <source>Sends parked until their provider&apos;s limit resets</source>
        <translation>挂起至服务商额度重置的发送</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::PlainHttpWarning</name>
    <message>
        <source>Send the key unencrypted?</source>
        <translation>以未加密方式发送密钥？</translation>
    </message>
    <message>
        <source>%1 uses plain HTTP. Your API key would travel unencrypted, readable by anyone on the way to %2.</source>
        <translation>%1 使用未加密的 HTTP。您的 API 密钥将以明文传输，在发往 %2 的途中任何人都能读取。</translation>
    </message>
    <message>
        <source>Use an https:// endpoint to keep the key private.</source>
        <translation>请使用 https:// 端点，以免密钥泄露。</translation>
    </message>
    <message>
        <source>Send &amp;anyway</source>
        <translation>仍然发送(&amp;A)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::PolicyOverridesBox</name>
    <message>
        <source>Retry policy</source>
        <translation>重试策略</translation>
    </message>
    <message>
        <source>Retry token &amp;limits</source>
        <translation>重试 Token 上限错误(&amp;L)</translation>
    </message>
    <message>
        <source>Retr&amp;y rate limits</source>
        <translation>重试速率限制错误(&amp;Y)</translation>
    </message>
    <message>
        <source>Retry server errors (&amp;5xx)</source>
        <translation>重试服务器错误 (&amp;5xx)</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Default (%1 s)</source>
        <translation>默认（%1 秒）</translation>
    </message>
    <message>
        <source>Default (%1)</source>
        <translation>默认（%1）</translation>
    </message>
    <message>
        <source>Per-&amp;wait cap:</source>
        <translation>单次等待上限(&amp;W)：</translation>
    </message>
    <message>
        <source>Per-wait cap</source>
        <translation>单次等待上限</translation>
    </message>
    <message>
        <source>The longest single wait before a retry, 1 to 600 s; the lowest value is the default of %1 s</source>
        <translation>重试前单次等待的最长时间，1 到 600 秒；最小值即表示使用默认值 %1 秒</translation>
    </message>
    <message>
        <source>Bud&amp;get:</source>
        <translation>预算(&amp;G)：</translation>
    </message>
    <message>
        <source>Retry budget</source>
        <translation>重试预算</translation>
    </message>
    <message>
        <source>All waits of one send together, 0 to 3600 s; 0 sends once and never retries; the lowest value is the default of %1 s</source>
        <translation>一次发送的所有等待时间之和，0 到 3600 秒；0 表示只发送一次、从不重试；最小值即表示使用默认值 %1 秒</translation>
    </message>
    <message>
        <source>A&amp;ttempts:</source>
        <translation>尝试次数(&amp;T)：</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <source>Requests of one send, the first included, 1 to 10; the lowest value is the default of %1</source>
        <translation>一次发送的请求数（含首次），1 到 10；最小值即表示使用默认值 %1</translation>
    </message>
    <message>
        <source>Ba&amp;ckoff base:</source>
        <translation>退避基数(&amp;C)：</translation>
    </message>
    <message>
        <source>Backoff base</source>
        <translation>退避基数</translation>
    </message>
    <message>
        <source>The first wait when the provider names none, doubled for each further retry, 1 to 60 s; the lowest value is the default of %1 s</source>
        <translation>服务商未给出等待时间时的首次等待时长，之后每次重试翻倍，1 到 60 秒；最小值即表示使用默认值 %1 秒</translation>
    </message>
    <message>
        <source>&amp;Header timeout:</source>
        <translation>响应头超时(&amp;H)：</translation>
    </message>
    <message>
        <source>Header timeout of a retry</source>
        <translation>重试的响应头超时</translation>
    </message>
    <message>
        <source>How long a retry waits for the provider&apos;s answer to begin, 10 to 300 s; the lowest value is the default of %1 s</source>
        <translation>重试时等待服务商开始响应的时长，10 到 300 秒；最小值即表示使用默认值 %1 秒</translation>
    </message>
    <message>
        <source>Wait and retry when the provider says the token cap is reached</source>
        <translation>服务商表示已达 Token 上限时，等待后重试</translation>
    </message>
    <message>
        <source>Wait and retry when the provider says too many requests were sent</source>
        <translation>服务商表示请求过多时，等待后重试</translation>
    </message>
    <message>
        <source>Wait and retry on server errors and network failures</source>
        <translation>遇到服务器错误和网络故障时，等待后重试</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::PriceOverridesBox</name>
    <message>
        <source>One row per model: its price per million input, output and cached input tokens, in USD; they win over the price table&apos;s</source>
        <translation>每个模型一行：每百万输入、输出和缓存输入 Token 的价格（美元）；优先于价格表</translation>
    </message>
    <message>
        <source>Prices</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>Add price</source>
        <translation>添加价格</translation>
    </message>
    <message>
        <source>Remove price</source>
        <translation>移除价格</translation>
    </message>
    <message>
        <source>This provider&apos;s own prices per million tokens, in USD, used instead of the price table&apos;s. Cached input may stay empty: it then costs as input.</source>
        <translation>此服务商自己的每百万 Token 价格（美元），代替价格表中的价格。“缓存输入”可留空：此时按输入计价。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Cached input</source>
        <translation>缓存输入</translation>
    </message>
    <message>
        <source>The model name, as the provider expects it</source>
        <translation>服务商所要求的模型名称</translation>
    </message>
    <message>
        <source>Per million prompt tokens</source>
        <translation>每百万提示 Token</translation>
    </message>
    <message>
        <source>Per million completion tokens</source>
        <translation>每百万补全 Token</translation>
    </message>
    <message>
        <source>Per million prompt tokens read from the provider&apos;s cache; empty: as input</source>
        <translation>每百万从服务商缓存读取的提示 Token；留空：按输入计价</translation>
    </message>
    <message>
        <source>Prices of this provider</source>
        <translation>此服务商的价格</translation>
    </message>
    <message>
        <source>Add a row for a model&apos;s price, started with the profile&apos;s model</source>
        <translation>为某个模型的价格添加一行，预先填入此配置的模型</translation>
    </message>
    <message>
        <source>Remove the selected price</source>
        <translation>移除所选价格</translation>
    </message>
    <message>
        <source>“%1” is not in the price table: without a price here, its costs show as tokens only.</source>
        <translation>“%1”不在价格表中：若此处未设置价格，其费用只以 Token 数显示。</translation>
    </message>
    <message>
        <source>Price table for “%1”: %2 / %3 per million tokens (input / output), %4 for cached input.</source>
        <translation>价格表中“%1”的价格：每百万 Token %2 / %3（输入 / 输出），缓存输入 %4。</translation>
    </message>
    <message>
        <source>Price table for “%1”: %2 / %3 per million tokens (input / output).</source>
        <translation>价格表中“%1”的价格：每百万 Token %2 / %3（输入 / 输出）。</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ProfileController</name>
    <message>
        <source>The next send goes to %1</source>
        <translation>下一次发送将发往 %1</translation>
    </message>
    <message>
        <source>Prof&amp;ile:</source>
        <translation>配置(&amp;Z)：</translation>
    </message>
    <message>
        <source>Provider profile</source>
        <translation>服务商配置</translation>
    </message>
    <message>
        <source>The provider profile of this conversation: its next send goes there (Ctrl+Shift+P)</source>
        <translation>此对话的服务商配置：下一次发送将发往这里（Ctrl+Shift+P）</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::PromptBox</name>
    <message>
        <source>Ask something. Ctrl+Enter sends, Esc cancels.</source>
        <translation>输入问题。按 Ctrl+Enter 发送，按 Esc 取消。</translation>
    </message>
    <message>
        <source>&amp;Send</source>
        <translation>发送(&amp;D)</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Retry now</source>
        <translation>立即重试(&amp;R)</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>Your message. Ctrl+Enter sends it, Esc cancels a send.</source>
        <translation>您的消息。按 Ctrl+Enter 发送，按 Esc 取消发送。</translation>
    </message>
    <message>
        <source>Send the prompt (Ctrl+Enter)</source>
        <translation>发送提示词（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>Cancel the send in flight, including a retry wait (Esc)</source>
        <translation>取消正在进行的发送，包括重试等待（Esc）</translation>
    </message>
    <message>
        <source>Send the last failed prompt again now</source>
        <translation>立即重新发送上次失败的提示词</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::PromptMessage</name>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Close the message</source>
        <translation>关闭消息</translation>
    </message>
    <message>
        <source>Act on the message shown above the prompt</source>
        <translation>处理提示词上方显示的消息</translation>
    </message>
    <message>
        <source>Cancel &amp;editing</source>
        <translation>取消编辑(&amp;E)</translation>
    </message>
    <message>
        <source>Pro&amp;vider settings…</source>
        <translation>服务商设置(&amp;V)…</translation>
    </message>
    <message>
        <source>&amp;Keep this limit</source>
        <translation>采用此限制(&amp;K)</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ProviderStatus</name>
    <message>
        <source>Endpoint</source>
        <translation>端点</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Key source</source>
        <translation>密钥来源</translation>
    </message>
    <message>
        <source>Endpoint: %1</source>
        <translation>端点：%1</translation>
    </message>
    <message>
        <source>embedded demo provider (%1)</source>
        <translation>内置演示服务商（%1）</translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation>模型：%1</translation>
    </message>
    <message>
        <source>Key: %1</source>
        <translation>密钥：%1</translation>
    </message>
    <message>
        <source>Model: not set</source>
        <translation>模型：未设置</translation>
    </message>
    <message>
        <source>Key: none (loopback endpoint)</source>
        <translation>密钥：无（回环端点）</translation>
    </message>
    <message>
        <source>Key: missing (%1)</source>
        <translation>密钥：缺失（%1）</translation>
    </message>
    <message>
        <source>Provider profile</source>
        <translation>服务商配置</translation>
    </message>
    <message>
        <source>Profile: %1</source>
        <translation>配置：%1</translation>
    </message>
    <message>
        <source>Endpoint: %1 (this run)</source>
        <translation>端点：%1（本次运行）</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ProviderWindowPart</name>
    <message>
        <source>Provider window</source>
        <translation>服务商额度窗口</translation>
    </message>
    <message>
        <source>Tokens left in the provider&apos;s window</source>
        <translation>服务商额度窗口中剩余的 Token</translation>
    </message>
    <message>
        <source>Share of the provider&apos;s token limit left</source>
        <translation>服务商 Token 上限的剩余比例</translation>
    </message>
    <message>
        <source>Requests left in the provider&apos;s window</source>
        <translation>服务商额度窗口中剩余的请求数</translation>
    </message>
    <message>
        <source>Share of the provider&apos;s request limit left</source>
        <translation>服务商请求数上限的剩余比例</translation>
    </message>
    <message>
        <source>Provider window reset</source>
        <translation>服务商额度窗口重置</translation>
    </message>
    <message>
        <source>tokens in %1</source>
        <translation>Token：%1 后</translation>
    </message>
    <message>
        <source>tokens renewed</source>
        <translation>Token 已恢复</translation>
    </message>
    <message>
        <source>requests in %1</source>
        <translation>请求数：%1 后</translation>
    </message>
    <message>
        <source>requests renewed</source>
        <translation>请求数已恢复</translation>
    </message>
    <message>
        <source>Resets: %1 · %2</source>
        <translation>重置：%1 · %2</translation>
    </message>
    <message>
        <source>Resets in %1</source>
        <translation>%1 后重置</translation>
    </message>
    <message>
        <source>Window renewed since this report: the figures are out of date</source>
        <translation>自此次报告以来窗口已重置：这些数值已过时</translation>
    </message>
    <message>
        <source>The provider reports no window.</source>
        <translation>服务商未报告额度窗口。</translation>
    </message>
    <message>
        <source>Tokens left: %1</source>
        <translation>剩余 Token：%1</translation>
    </message>
    <message>
        <source>Requests left: %1</source>
        <translation>剩余请求数：%1</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <comment>what is left of the provider&apos;s limit</comment>
        <translation>%1 / %2</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ProvidersPage</name>
    <message>
        <source>1 model</source>
        <translation>1 个模型</translation>
    </message>
    <message numerus="yes">
        <source>%n models</source>
        <translation>
            <numerusform>%n 个模型</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>添加(&amp;A)</translation>
    </message>
    <message>
        <source>D&amp;uplicate</source>
        <translation>复制(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <source>Set as default</source>
        <translation>设为默认</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>Environment &amp;variable:</source>
        <translation>环境变量(&amp;V)：</translation>
    </message>
    <message>
        <source>Key f&amp;ile:</source>
        <translation>密钥文件(&amp;I)：</translation>
    </message>
    <message>
        <source>System &amp;keychain:</source>
        <translation>系统密钥环(&amp;K)：</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>&amp;Stream answers as they are written</source>
        <translation>边生成边流式显示回答(&amp;S)</translation>
    </message>
    <message>
        <source>Send to the fallback automatically</source>
        <translation>自动发送到备用配置</translation>
    </message>
    <message>
        <source>&amp;Profiles:</source>
        <translation>配置(&amp;P)：</translation>
    </message>
    <message>
        <source>Provider profiles</source>
        <translation>服务商配置</translation>
    </message>
    <message>
        <source>The providers capwatch can send to; the selected one is edited on the right. Delete removes it</source>
        <translation>capwatch 可发送到的服务商；所选服务商在右侧编辑。按 Delete 键可将其删除</translation>
    </message>
    <message>
        <source>Add a provider profile</source>
        <translation>添加服务商配置</translation>
    </message>
    <message>
        <source>Add a copy of the selected profile</source>
        <translation>添加所选配置的副本</translation>
    </message>
    <message>
        <source>Delete the selected profile; the built-in demo cannot be deleted</source>
        <translation>删除所选配置；内置演示配置无法删除</translation>
    </message>
    <message>
        <source>New conversations start with the selected profile</source>
        <translation>新对话将使用所选配置</translation>
    </message>
    <message>
        <source>This provider has no model list: type the model name</source>
        <translation>此服务商没有模型列表：请输入模型名称</translation>
    </message>
    <message>
        <source>model name, e.g. gpt-4o-mini</source>
        <translation>模型名称，例如 gpt-4o-mini</translation>
    </message>
    <message>
        <source>paste a key to store it; leave empty to keep the stored one</source>
        <translation>粘贴密钥以存储；留空则保留已存储的密钥</translation>
    </message>
    <message>
        <source>Name: value, one per line</source>
        <translation>Name: value，每行一个</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> Token</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Endpoint:</source>
        <translation>端点(&amp;E)：</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <source>API key (never stored in the settings file)</source>
        <translation>API 密钥（绝不会存储在设置文件中）</translation>
    </message>
    <message>
        <source>E&amp;xtra headers:</source>
        <translation>额外请求头(&amp;X)：</translation>
    </message>
    <message>
        <source>C&amp;ontext window:</source>
        <translation>上下文窗口(&amp;O)：</translation>
    </message>
    <message>
        <source>When this provider is capped</source>
        <translation>当此服务商达到上限时</translation>
    </message>
    <message>
        <source>&amp;Fallback:</source>
        <translation>备用配置(&amp;F)：</translation>
    </message>
    <message>
        <source>Profile name</source>
        <translation>配置名称</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>端点</translation>
    </message>
    <message>
        <source>Base URL of an OpenAI-compatible API, or its chat/completions URL</source>
        <translation>OpenAI 兼容 API 的基础 URL，或其 chat/completions URL</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>The model name the provider expects: one it lists, or any name typed</source>
        <translation>服务商要求的模型名称：可从其列表中选择，也可输入任意名称</translation>
    </message>
    <message>
        <source>Ask the provider again for the models it offers</source>
        <translation>再次向服务商查询其提供的模型</translation>
    </message>
    <message>
        <source>Environment variable holding the key</source>
        <translation>存放密钥的环境变量</translation>
    </message>
    <message>
        <source>Key file path</source>
        <translation>密钥文件路径</translation>
    </message>
    <message>
        <source>Key to store in the system keychain</source>
        <translation>要存储到系统密钥环的密钥</translation>
    </message>
    <message>
        <source>Choose the key file</source>
        <translation>选择密钥文件</translation>
    </message>
    <message>
        <source>Extra headers</source>
        <translation>额外请求头</translation>
    </message>
    <message>
        <source>Sent with every request to this provider, one &quot;Name: value&quot; per line</source>
        <translation>随每个发往此服务商的请求一起发送，每行一个“Name: value”</translation>
    </message>
    <message>
        <source>Context window</source>
        <translation>上下文窗口</translation>
    </message>
    <message>
        <source>The model&apos;s context window in tokens; 0 when unknown</source>
        <translation>模型的上下文窗口大小（Token）；未知时为 0</translation>
    </message>
    <message>
        <source>Fallback profile</source>
        <translation>备用配置</translation>
    </message>
    <message>
        <source>Where a send may go instead when this provider caps it</source>
        <translation>当此服务商因达到上限而拒绝发送时，可改为发往的配置</translation>
    </message>
    <message>
        <source>When a send is capped, send it to the fallback without asking</source>
        <translation>发送达到上限时，不经询问直接发送到备用配置</translation>
    </message>
    <message>
        <source>Stream answers</source>
        <translation>流式显示回答</translation>
    </message>
    <message>
        <source>(no name)</source>
        <translation>（无名称）</translation>
    </message>
    <message>
        <source>%1 (built-in, default)</source>
        <translation>%1（内置，默认）</translation>
    </message>
    <message>
        <source>%1 (built-in)</source>
        <translation>%1（内置）</translation>
    </message>
    <message>
        <source>%1 (default)</source>
        <translation>%1（默认）</translation>
    </message>
    <message>
        <source>The provider named %1 tokens.</source>
        <translation>服务商给出的值为 %1 Token。</translation>
    </message>
    <message>
        <source>The model&apos;s context window in tokens; 0 when unknown. %1</source>
        <translation>模型的上下文窗口大小（Token）；未知时为 0。%1</translation>
    </message>
    <message>
        <source>The settings file has problems with this profile:
%1</source>
        <translation>设置文件中的此配置存在问题：
%1</translation>
    </message>
    <message>
        <source>Refresh asks the provider for its models.</source>
        <translation>“刷新”会向服务商查询其模型。</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>New provider</source>
        <translation>新服务商</translation>
    </message>
    <message>
        <source>%1 (copy)</source>
        <translation>%1（副本）</translation>
    </message>
    <message>
        <source>system keychain</source>
        <translation>系统密钥环</translation>
    </message>
    <message>
        <source>Enter the endpoint first: its model list comes from there.</source>
        <translation>请先填写端点：模型列表从那里获取。</translation>
    </message>
    <message>
        <source>Asking the provider for its models…</source>
        <translation>正在向服务商查询模型…</translation>
    </message>
    <message>
        <source>The endpoint must be an http:// or https:// URL.</source>
        <translation>端点必须是 http:// 或 https:// URL。</translation>
    </message>
    <message>
        <source>Name the model the provider should use.</source>
        <translation>请填写服务商应使用的模型名称。</translation>
    </message>
    <message>
        <source>Name the environment variable that holds the key.</source>
        <translation>请填写存放密钥的环境变量名称。</translation>
    </message>
    <message>
        <source>Choose the key file.</source>
        <translation>请选择密钥文件。</translation>
    </message>
    <message>
        <source>Line %1 of the extra headers is not &quot;Name: value&quot;.</source>
        <translation>额外请求头的第 %1 行不是“Name: value”格式。</translation>
    </message>
    <message>
        <source>Give the profile a name.</source>
        <translation>请为配置命名。</translation>
    </message>
    <message>
        <source>Another profile is already named “%1”.</source>
        <translation>已有另一个配置名为“%1”。</translation>
    </message>
    <message>
        <source>No model list (%1): type the model name</source>
        <translation>没有模型列表（%1）：请输入模型名称</translation>
    </message>
    <message>
        <source>%1 from the last list; the provider does not answer now (%2)</source>
        <translation>上次列表中的 %1；服务商目前没有响应（%2）</translation>
    </message>
    <message>
        <source>Not asked for its models: the endpoint uses plain HTTP, and the key would travel unencrypted. Refresh asks first.</source>
        <translation>未获取其模型：该端点使用未加密的 HTTP，密钥将以明文传输。点击刷新时会先询问。</translation>
    </message>
    <message>
        <source>Waiting for your answer: send the key unencrypted?</source>
        <translation>等待您的回答：以未加密方式发送密钥？</translation>
    </message>
    <message>
        <source>Not asked for its models: the key stays unsent.</source>
        <translation>未获取其模型：密钥未发送。</translation>
    </message>
    <message>
        <source>Row %1 of the prices names no model.</source>
        <translation>价格第 %1 行没有填写模型。</translation>
    </message>
    <message>
        <source>Row %1 of the prices: a model name is at most %2 characters.</source>
        <translation>价格第 %1 行：模型名称最多 %2 个字符。</translation>
    </message>
    <message>
        <source>Row %1 of the prices needs an input price.</source>
        <translation>价格第 %1 行缺少输入 Token 的价格。</translation>
    </message>
    <message>
        <source>Row %1 of the prices needs an output price.</source>
        <translation>价格第 %1 行缺少输出 Token 的价格。</translation>
    </message>
    <message>
        <source>Row %1 of the prices: “%2” is not a price from 0 to %3 per million tokens.</source>
        <translation>价格第 %1 行：“%2”不是 0 到 %3 之间的每百万 Token 价格。</translation>
    </message>
    <message>
        <source>Row %1 of the prices: “%2” has a price already.</source>
        <translation>价格第 %1 行：“%2”已有价格。</translation>
    </message>
    <message>
        <source>The built-in demo provider runs inside capwatch: it needs no account and no key. Its retry policy, fallback, limits and prices can be changed.</source>
        <translation>内置演示服务商在 capwatch 内部运行：无需账户，也无需密钥。可以更改其重试策略、备用配置、限额和价格。</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::RequestOptionsRow</name>
    <message>
        <source>Request &amp;options</source>
        <translation>请求选项(&amp;O)</translation>
    </message>
    <message>
        <source>Request options</source>
        <translation>请求选项</translation>
    </message>
    <message>
        <source>Show or hide the system prompt, the answer&apos;s length limit and the temperature</source>
        <translation>显示或隐藏系统提示词、回答长度上限和温度</translation>
    </message>
    <message>
        <source>S&amp;ystem prompt:</source>
        <translation>系统提示词(&amp;Y)：</translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation>系统提示词</translation>
    </message>
    <message>
        <source>Sent before the conversation with every request</source>
        <translation>每次请求时在对话之前发送</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>&amp;Max tokens:</source>
        <translation>最大 Token 数(&amp;M)：</translation>
    </message>
    <message>
        <source>Max tokens</source>
        <translation>最大 Token 数</translation>
    </message>
    <message>
        <source>The longest answer, in tokens; Default leaves it to the provider</source>
        <translation>回答的最大长度（Token）；“默认”表示由服务商决定</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>Tem&amp;perature:</source>
        <translation>温度(&amp;P)：</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Sampling temperature, 0 to 2; Default leaves it to the provider</source>
        <translation>采样温度，0 到 2；“默认”表示由服务商决定</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::RetryLogModel</name>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>尝试</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Used</source>
        <translation>已用</translation>
    </message>
    <message>
        <source>Limit</source>
        <translation>上限</translation>
    </message>
    <message>
        <source>Wait (s)</source>
        <translation>等待（秒）</translation>
    </message>
    <message>
        <source>Asked (s)</source>
        <translation>要求（秒）</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Waited (s)</source>
        <translation>已等待（秒）</translation>
    </message>
    <message>
        <source>Budget left (s)</source>
        <translation>剩余预算（秒）</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Resets at</source>
        <translation>额度重置时间</translation>
    </message>
    <message>
        <source>Waited for the provider&apos;s window to reset before attempt 1; not counted in the retry budget</source>
        <translation>第 1 次尝试前等待服务商的额度窗口重置；不计入重试预算</translation>
    </message>
    <message>
        <source>Tokens left in the provider&apos;s window, as the provider last reported it</source>
        <translation>服务商最近一次报告的额度窗口剩余 Token 数</translation>
    </message>
    <message>
        <source>Seconds until the provider&apos;s window resets, as last reported</source>
        <translation>距额度窗口重置的秒数（以最近一次报告为准）</translation>
    </message>
    <message>
        <source>The request&apos;s estimated tokens: prompt, context and completion</source>
        <translation>请求的预估 Token 数：提示词、上下文和回答</translation>
    </message>
    <message>
        <source>Window tokens left</source>
        <translation>窗口剩余 Token</translation>
    </message>
    <message>
        <source>Window reset (s)</source>
        <translation>窗口重置（秒）</translation>
    </message>
    <message>
        <source>Estimated tokens</source>
        <translation>预估 Token</translation>
    </message>
    <message>
        <source>The send ended capped; its prompt goes to the profile %1 instead</source>
        <translation>本次发送因达到上限而结束；其提示词改为发送到配置 %1</translation>
    </message>
    <message>
        <source>The profile the prompt went to after this send ended capped</source>
        <translation>本次发送因达到上限结束后，提示词改发到的配置</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Fallback to</source>
        <translation>改发至</translation>
    </message>
    <message>
        <source>complete</source>
        <translation>完整</translation>
    </message>
    <message>
        <source>cut off</source>
        <translation>截断</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>中断</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>空</translation>
    </message>
    <message>
        <source>The answer stopped after it began; what came is kept, and Continue goes on from it</source>
        <translation>回答开始后中途停止；已收到的内容会保留，“继续”会从那里接着写</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::RetryPanel</name>
    <message>
        <source>Retry cycle</source>
        <translation>重试过程</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>尝试</translation>
    </message>
    <message>
        <source>Tokens used / limit</source>
        <translation>已用 Token / 上限</translation>
    </message>
    <message>
        <source>Next retry in</source>
        <translation>距下次重试</translation>
    </message>
    <message>
        <source>Retry budget left</source>
        <translation>剩余重试预算</translation>
    </message>
    <message>
        <source>Wait came from</source>
        <translation>等待时长来源</translation>
    </message>
    <message>
        <source>Retry panel</source>
        <translation>重试面板</translation>
    </message>
    <message>
        <source>The live state of the current send&apos;s retries</source>
        <translation>当前发送的实时重试状态</translation>
    </message>
    <message>
        <source>Send state</source>
        <translation>发送状态</translation>
    </message>
    <message>
        <source>Attempts used</source>
        <translation>已用尝试次数</translation>
    </message>
    <message>
        <source>Tokens used and limit</source>
        <translation>已用 Token 与上限</translation>
    </message>
    <message>
        <source>Tokens used of the limit</source>
        <translation>已用 Token 占上限的比例</translation>
    </message>
    <message>
        <source>Wait progress</source>
        <translation>等待进度</translation>
    </message>
    <message>
        <source>Where the wait came from</source>
        <translation>等待时长的来源</translation>
    </message>
    <message>
        <source>Last failure</source>
        <translation>上次失败</translation>
    </message>
    <message>
        <source>Retry budget left of %1 seconds</source>
        <translation>剩余重试预算（共 %1 秒）</translation>
    </message>
    <message>
        <source>Provider&apos;s reset in</source>
        <translation>距服务商额度重置</translation>
    </message>
    <message>
        <source>Send no&amp;w</source>
        <translation>立即发送(&amp;W)</translation>
    </message>
    <message>
        <source>Send now</source>
        <translation>立即发送</translation>
    </message>
    <message>
        <source>Sends without waiting for the provider&apos;s window to reset</source>
        <translation>不等服务商的额度窗口重置，直接发送</translation>
    </message>
    <message>
        <source>Sending in</source>
        <translation>距发送</translation>
    </message>
    <message>
        <source>Send at the provider&apos;s reset</source>
        <translation>在提供方重置时发送</translation>
    </message>
    <message>
        <source>Stops retrying and parks the send until the provider&apos;s reset, when it goes out by itself</source>
        <translation>停止重试并暂存该请求，直到提供方重置时自动发出</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::SearchResultsModel</name>
    <message>
        <source>Untitled conversation</source>
        <translation>未命名对话</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::SendStatus</name>
    <message>
        <source>Send in flight</source>
        <translation>进行中的发送</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::Settings</name>
    <message>
        <source>key file %1</source>
        <translation>密钥文件 %1</translation>
    </message>
    <message>
        <source>system keychain</source>
        <translation>系统密钥环</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::SettingsDialog</name>
    <message>
        <source>Storing the key in the system keychain…</source>
        <translation>正在将密钥存储到系统密钥环…</translation>
    </message>
    <message>
        <source>The key was not stored: %1. Your settings are unchanged: choose another key source, or try again.</source>
        <translation>密钥未存储：%1。您的设置未更改：请选择其他密钥来源，或重试。</translation>
    </message>
    <message>
        <source>Checking the system keychain…</source>
        <translation>正在检查系统密钥环…</translation>
    </message>
    <message>
        <source>The system keychain cannot be used: %1. Your settings are unchanged: paste a key to store it, or choose another key source.</source>
        <translation>无法使用系统密钥环：%1。您的设置未更改：请粘贴密钥以存储，或选择其他密钥来源。</translation>
    </message>
    <message>
        <source>the stored key is empty</source>
        <translation>存储的密钥为空</translation>
    </message>
    <message>
        <source>&amp;Ask each time</source>
        <translation>每次询问(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Park automatically until the reset</source>
        <translation>自动挂起至额度重置(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Give up</source>
        <translation>放弃(&amp;G)</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Retries</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>When the provider&apos;s reset is beyond the retry budget:</source>
        <translation>当服务商的额度重置时间超出重试预算时：</translation>
    </message>
    <message>
        <source>Ask each time</source>
        <translation>每次询问</translation>
    </message>
    <message>
        <source>%1 offer to send it again at the reset, beside Retry now</source>
        <translation>%1在“立即重试”旁提供在额度重置时重新发送的选项</translation>
    </message>
    <message>
        <source>Park automatically until the reset</source>
        <translation>自动挂起至额度重置</translation>
    </message>
    <message>
        <source>%1 wait for the reset and send it again then, without asking</source>
        <translation>%1不经询问，等待额度重置后重新发送</translation>
    </message>
    <message>
        <source>Give up</source>
        <translation>放弃</translation>
    </message>
    <message>
        <source>%1 give up, as within the budget; Retry now sends it again</source>
        <translation>%1放弃，与预算内的处理相同；“立即重试”可重新发送</translation>
    </message>
    <message>
        <source>Pa&amp;ce sends so the provider&apos;s window is not exceeded</source>
        <translation>节流发送，避免超出服务商的额度窗口(&amp;C)</translation>
    </message>
    <message>
        <source>Pace sends</source>
        <translation>节流发送</translation>
    </message>
    <message>
        <source>Before a send, wait up to 60 s for the provider&apos;s window to reset when its last report says the send will not fit</source>
        <translation>若服务商最近一次报告表明本次发送会超出额度，则在发送前最多等待 60 秒，直到额度窗口重置</translation>
    </message>
    <message>
        <source>Leave out the oldest turns automatically</source>
        <translation>自动略去最早的几轮对话</translation>
    </message>
    <message>
        <source>When a conversation outgrows the model&apos;s context, leave out its oldest turns without asking; the conversation says what was left out</source>
        <translation>对话超出模型上下文时，不经询问直接略去最早的几轮；对话中会注明略去了哪些内容</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>&amp;Leave out the oldest turns automatically</source>
        <translation>自动略去最早的几轮对话(&amp;L)</translation>
    </message>
    <message>
        <source>When a conversation outgrows the model&apos;s context; the conversation says what was left out.</source>
        <translation>在对话超出模型的上下文时；对话中会注明略去了哪些内容。</translation>
    </message>
    <message>
        <source>The numbers of the retry policy (waits, budget, attempts) are each provider&apos;s: Providers, Retry policy.</source>
        <translation>重试策略的各项数值（等待时间、预算、尝试次数）按服务商分别设置：服务商，重试策略。</translation>
    </message>
    <message>
        <source>Providers</source>
        <translation>服务商</translation>
    </message>
    <message>
        <source>Storing the key of “%1” in the system keychain…</source>
        <translation>正在将“%1”的密钥存储到系统密钥环…</translation>
    </message>
    <message>
        <source>The key of “%1” was not stored: %2. Your settings are unchanged: choose another key source, or try again.</source>
        <translation>“%1”的密钥未能存储：%2。您的设置未更改：请选择其他密钥来源，或重试。</translation>
    </message>
    <message>
        <source>Checking the system keychain for “%1”…</source>
        <translation>正在系统密钥环中检查“%1”的密钥…</translation>
    </message>
    <message>
        <source>The system keychain cannot be used for “%1”: %2. Your settings are unchanged: paste a key to store it, or choose another key source.</source>
        <translation>无法为“%1”使用系统密钥环：%2。您的设置未更改：请粘贴密钥以存储，或选择其他密钥来源。</translation>
    </message>
    <message>
        <source>Answers</source>
        <translation>回答</translation>
    </message>
    <message>
        <source>Contin&amp;ue answers cut off at the output limit by themselves:</source>
        <translation>自动续写在输出上限处被截断的回答(&amp;U)：</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>从不</translation>
    </message>
    <message>
        <source>Once</source>
        <translation>一次</translation>
    </message>
    <message>
        <source>Up to %1 times in a row</source>
        <translation>最多连续 %1 次</translation>
    </message>
    <message>
        <source>An interrupted answer is never continued by itself: Continue under it goes on with it.</source>
        <translation>中断的回答从不自动续写：点击其下方的“继续”接着写。</translation>
    </message>
    <message>
        <source>Continue cut-off answers by themselves</source>
        <translation>自动续写被截断的回答</translation>
    </message>
    <message>
        <source>How many times in a row an answer cut off at the output limit is continued without asking; what comes joins the same answer</source>
        <translation>在输出上限处被截断的回答不经询问连续续写的次数；续写的内容接在同一个回答后面</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::SpendGauges</name>
    <message>
        <source>%1 · money today</source>
        <translation>%1 · 今日费用</translation>
    </message>
    <message>
        <source>%1 · money this month</source>
        <translation>%1 · 本月费用</translation>
    </message>
    <message>
        <source>%1 · tokens today</source>
        <translation>%1 · 今日 Token</translation>
    </message>
    <message>
        <source>%1 · tokens this month</source>
        <translation>%1 · 本月 Token</translation>
    </message>
    <message>
        <source>Reached; it resets %1.</source>
        <translation>已达到；将于 %1 重置。</translation>
    </message>
    <message>
        <source>At this rate the daily limit is reached at %1.</source>
        <translation>按当前速度，将于 %1 达到每日限额。</translation>
    </message>
    <message>
        <source>At this rate the monthly limit is reached on %1.</source>
        <translation>按当前速度，将于 %1 达到每月限额。</translation>
    </message>
    <message>
        <source>At this rate it is not reached today.</source>
        <translation>按当前速度，今日不会达到限额。</translation>
    </message>
    <message>
        <source>At this rate it is not reached this month.</source>
        <translation>按当前速度，本月不会达到限额。</translation>
    </message>
    <message>
        <source>Nothing used yet.</source>
        <translation>尚未使用。</translation>
    </message>
    <message>
        <source>%1 of %2 (%3 %)</source>
        <translation>%1 / %2（%3%）</translation>
    </message>
    <message>
        <source>No profile has a spending limit. Set one in Settings → Providers → Spending limits.</source>
        <translation>没有任何配置设有用量限额。请在“设置 → 服务商 → 用量限额”中设定。</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::SpendStatus</name>
    <message>
        <source>Today: %1 · %2 tokens</source>
        <translation>今日：%1 · %2 Token</translation>
    </message>
    <message>
        <source>Today: %1 tokens</source>
        <translation>今日：%1 Token</translation>
    </message>
    <message>
        <source>Today: %1 of %2 tokens</source>
        <translation>今日：%1 / %2 Token</translation>
    </message>
    <message>
        <source>This month: %1 of %2 tokens</source>
        <translation>本月：%1 / %2 Token</translation>
    </message>
    <message>
        <source>Today: %1 of %2</source>
        <translation>今日：%1 / %2</translation>
    </message>
    <message>
        <source>This month: %1 of %2</source>
        <translation>本月：%1 / %2</translation>
    </message>
    <message>
        <source>Spending limit reached: %1</source>
        <translation>已达到用量限额：%1</translation>
    </message>
    <message>
        <source>%1 % of a spending limit used: %2</source>
        <translation>已用去用量限额的 %1%：%2</translation>
    </message>
    <message>
        <source>Billed by the provider: %1</source>
        <translation>服务商计费：%1</translation>
    </message>
    <message>
        <source>Estimated from prices: %1</source>
        <translation>按价格估算：%1</translation>
    </message>
    <message>
        <source>Attempts with no known price: %1</source>
        <translation>价格未知的尝试：%1</translation>
    </message>
    <message>
        <source>Usage today</source>
        <translation>今日用量</translation>
    </message>
    <message>
        <source>%1 today. Requests: %2; tokens: %3</source>
        <translation>%1 今日。请求：%2；Token：%3</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::SystemKeychain</name>
    <message>
        <source>no key is stored in the system keychain</source>
        <translation>系统密钥环中没有存储密钥</translation>
    </message>
    <message>
        <source>the system keychain is not available: %1</source>
        <translation>系统密钥环不可用：%1</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::TimelineWidget</name>
    <message>
        <source>attempt %1</source>
        <translation>第 %1 次尝试</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>Send %1</source>
        <translation>第 %1 次发送</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>gave up</source>
        <translation>已放弃</translation>
    </message>
    <message>
        <source>gave up: %1</source>
        <translation>已放弃：%1</translation>
    </message>
    <message>
        <source>waiting…</source>
        <translation>等待中…</translation>
    </message>
    <message>
        <source>sending…</source>
        <translation>发送中…</translation>
    </message>
    <message>
        <source>attempts: %1</source>
        <translation>尝试 %1 次</translation>
    </message>
    <message>
        <source>%1 · %2 of %3</source>
        <translation>%1 · %2 / %3</translation>
    </message>
    <message>
        <source>%1 · wait %2</source>
        <translation>%1 · 等待 %2</translation>
    </message>
    <message>
        <source>%1 · waited %2</source>
        <translation>%1 · 已等待 %2</translation>
    </message>
    <message>
        <source>budget %1</source>
        <translation>预算 %1</translation>
    </message>
    <message>
        <source>Retry timeline</source>
        <translation>重试时间线</translation>
    </message>
    <message>
        <source>Attempts and waits of each send against the %1 retry budget. No sends yet.</source>
        <translation>以 %1 重试预算为参照，显示每次发送的尝试和等待。尚无发送。</translation>
    </message>
    <message>
        <source>Sends in this session: %1. Latest, send %2: attempts: %3, waited %4 of the %5 budget, %6.</source>
        <translation>本次会话共发送 %1 次。最近一次为第 %2 次发送：尝试 %3 次，已等待 %4（预算 %5），%6。</translation>
    </message>
    <message>
        <source>Send %1 · attempt %2 of %3</source>
        <translation>第 %1 次发送 · 第 %2 次尝试（共 %3 次）</translation>
    </message>
    <message>
        <source>Sent after:</source>
        <translation>发送于：</translation>
    </message>
    <message>
        <source>%1 of scheduled waiting</source>
        <translation>计划等待 %1 之后</translation>
    </message>
    <message>
        <source>Status:</source>
        <translation>状态：</translation>
    </message>
    <message>
        <source>waiting for the response</source>
        <translation>正在等待响应</translation>
    </message>
    <message>
        <source>no HTTP status</source>
        <translation>无 HTTP 状态码</translation>
    </message>
    <message>
        <source>Category:</source>
        <translation>类别：</translation>
    </message>
    <message>
        <source>?</source>
        <translation>?</translation>
    </message>
    <message>
        <source>Tokens:</source>
        <translation>Token：</translation>
    </message>
    <message>
        <source>%1 used, limit %2</source>
        <translation>已用 %1，上限 %2</translation>
    </message>
    <message>
        <source>Error:</source>
        <translation>错误：</translation>
    </message>
    <message>
        <source>Send %1 · wait after attempt %2</source>
        <translation>第 %1 次发送 · 第 %2 次尝试后的等待</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>来源：</translation>
    </message>
    <message>
        <source>Asked for:</source>
        <translation>要求等待：</translation>
    </message>
    <message>
        <source>Wait:</source>
        <translation>等待：</translation>
    </message>
    <message>
        <source>%1 (capped at %2 per wait)</source>
        <translation>%1（每次等待上限为 %2）</translation>
    </message>
    <message>
        <source>Budget:</source>
        <translation>预算：</translation>
    </message>
    <message>
        <source>%1 waited, %2 left of %3</source>
        <translation>已等待 %1，剩余 %2（共 %3）</translation>
    </message>
    <message>
        <source>Elapsed:</source>
        <translation>已过时间：</translation>
    </message>
    <message>
        <source>After:</source>
        <translation>起因：</translation>
    </message>
    <message>
        <source>%1 failed with %2</source>
        <translation>%1失败（%2）</translation>
    </message>
    <message>
        <source>Started %1</source>
        <translation>开始于 %1</translation>
    </message>
    <message>
        <source>per-wait cap</source>
        <translation>单次等待上限</translation>
    </message>
    <message>
        <source>No sends yet</source>
        <translation>尚无发送</translation>
    </message>
    <message>
        <source>Scroll the sends</source>
        <translation>滚动浏览发送</translation>
    </message>
    <message>
        <source>Cancelled:</source>
        <translation>已取消：</translation>
    </message>
    <message>
        <source>after %1 of the wait</source>
        <translation>等待 %1 后</translation>
    </message>
    <message>
        <source>parked</source>
        <translation>已挂起</translation>
    </message>
    <message>
        <source>parked until %1: it goes out again at the provider&apos;s reset</source>
        <translation>已挂起至 %1：服务商额度重置时将重新发出</translation>
    </message>
    <message>
        <source>It is send %1 again, after it was parked.</source>
        <translation>这是挂起后重新发出的第 %1 次发送。</translation>
    </message>
    <message>
        <source>Send %1 is %2.</source>
        <translation>第 %1 次发送%2。</translation>
    </message>
    <message>
        <source>Send %1 · parked</source>
        <translation>第 %1 次发送 · 已挂起</translation>
    </message>
    <message>
        <source>Parked:</source>
        <translation>挂起于：</translation>
    </message>
    <message>
        <source>Until:</source>
        <translation>直至：</translation>
    </message>
    <message>
        <source>%1, the provider&apos;s reset</source>
        <translation>%1，服务商额度重置</translation>
    </message>
    <message>
        <source>the provider&apos;s reset</source>
        <translation>服务商额度重置</translation>
    </message>
    <message>
        <source>Then:</source>
        <translation>之后：</translation>
    </message>
    <message>
        <source>it goes out again with a fresh retry cycle</source>
        <translation>以全新的重试过程重新发出</translation>
    </message>
    <message>
        <source>Left the queue:</source>
        <translation>离开队列：</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>Sent again:</source>
        <translation>重新发送：</translation>
    </message>
    <message>
        <source>as send %1</source>
        <translation>作为第 %1 次发送</translation>
    </message>
    <message>
        <source>Outside the budget:</source>
        <translation>预算之外：</translation>
    </message>
    <message>
        <source>after %1 of waiting, %2</source>
        <translation>等待 %1 后，%2</translation>
    </message>
    <message>
        <source>capped</source>
        <translation>已达上限</translation>
    </message>
    <message>
        <source>Send %1 again, after it was parked</source>
        <translation>挂起后重新发出的第 %1 次发送</translation>
    </message>
    <message>
        <source>Before its first attempt it waited %1 for the provider&apos;s window, outside the budget.</source>
        <translation>首次尝试前，它等待服务商的额度窗口 %1，不计入预算。</translation>
    </message>
    <message>
        <source>Send %1 · paced</source>
        <translation>第 %1 次发送 · 已节流</translation>
    </message>
    <message>
        <source>Waited for:</source>
        <translation>等待原因：</translation>
    </message>
    <message>
        <source>the provider&apos;s window to reset, before attempt 1</source>
        <translation>服务商额度窗口重置，在第 1 次尝试前</translation>
    </message>
    <message>
        <source>Estimated tokens:</source>
        <translation>预估 Token：</translation>
    </message>
    <message>
        <source>Tokens left in the window:</source>
        <translation>窗口剩余 Token：</translation>
    </message>
    <message>
        <source>pacing does not spend the %1 of retry waiting</source>
        <translation>节流不占用 %1 的重试等待时间</translation>
    </message>
    <message>
        <source>%1 · → %2</source>
        <translation>%1 · → %2</translation>
    </message>
    <message>
        <source>Send %1 was capped and went to %2 instead.</source>
        <translation>第 %1 次发送已达上限，已改为发送到 %2。</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <source>interrupted: its answer stopped part-way and what came is kept; %1</source>
        <translation>已中断：回答中途停止，已收到的内容会保留；%1</translation>
    </message>
    <message>
        <source>Answer:</source>
        <translation>回答：</translation>
    </message>
    <message>
        <source>interrupted after it began; what came is kept</source>
        <translation>开始后中断；已收到的内容会保留</translation>
    </message>
</context>
<context>
    <name>cli</name>
    <message>
        <source>Show this help.</source>
        <translation>显示此帮助。</translation>
    </message>
    <message>
        <source>Classify one provider response without sending anything.</source>
        <translation>对一个服务商响应进行分类，不发送任何请求。</translation>
    </message>
    <message>
        <source>HTTP status of the response (100-999).</source>
        <translation>响应的 HTTP 状态码（100-999）。</translation>
    </message>
    <message>
        <source>The response body. Without --body or --body-file it is read from standard input.</source>
        <translation>响应体。未指定 --body 或 --body-file 时从标准输入读取。</translation>
    </message>
    <message>
        <source>Read the response body from a file, byte for byte.</source>
        <translation>从文件中逐字节读取响应体。</translation>
    </message>
    <message>
        <source>Which retry the backoff is computed for (default 1).</source>
        <translation>计算退避时长所针对的重试序号（默认：1）。</translation>
    </message>
    <message>
        <source>capwatch-cli talks to OpenAI-compatible providers that enforce token caps, and retries token-limit errors the way the capwatch retry policy says.</source>
        <translation>capwatch-cli 与设有 Token 上限的 OpenAI 兼容服务商通信，并按照 capwatch 重试策略重试 Token 上限错误。</translation>
    </message>
    <message>
        <source>Commands:</source>
        <translation>命令：</translation>
    </message>
    <message>
        <source>Options:</source>
        <translation>选项：</translation>
    </message>
    <message>
        <source>Show the version.</source>
        <translation>显示版本。</translation>
    </message>
    <message>
        <source>&apos;capwatch-cli COMMAND --help&apos; describes a command.</source>
        <translation>“capwatch-cli COMMAND --help”可显示某个命令的说明。</translation>
    </message>
    <message>
        <source>Send one prompt to an OpenAI-compatible endpoint, retrying by the capwatch policy.</source>
        <translation>向 OpenAI 兼容端点发送一条提示词，并按照 capwatch 策略重试。</translation>
    </message>
    <message>
        <source>Base URL (http://host:port/v1) or the full .../chat/completions URL.</source>
        <translation>基础 URL（http://host:port/v1）或完整的 .../chat/completions URL。</translation>
    </message>
    <message>
        <source>The prompt; read from standard input when absent.</source>
        <translation>提示词；未指定时从标准输入读取。</translation>
    </message>
    <message>
        <source>A system message sent before the prompt.</source>
        <translation>在提示词之前发送的系统消息。</translation>
    </message>
    <message>
        <source>Largest answer, in tokens.</source>
        <translation>回答的最大长度，以 Token 计。</translation>
    </message>
    <message>
        <source>Environment variable holding the key (default: OPENAI_COMPAT_API_KEY).</source>
        <translation>存放密钥的环境变量（默认：OPENAI_COMPAT_API_KEY）。</translation>
    </message>
    <message>
        <source>File holding the key; read again after a 401/403.</source>
        <translation>存放密钥的文件；收到 401/403 后会重新读取。</translation>
    </message>
    <message>
        <source>Ask for the whole answer at once instead of a stream.</source>
        <translation>一次性获取完整回答，而不使用流式传输。</translation>
    </message>
    <message>
        <source>Append the retry log here: JSON Lines, or CSV when PATH ends in .csv.</source>
        <translation>将重试日志追加到此文件：格式为 JSON Lines；PATH 以 .csv 结尾时为 CSV。</translation>
    </message>
    <message>
        <source>Run every wait and timeout F times as long (0 &lt; F &lt;= 1); figures stay in policy seconds.</source>
        <translation>将每次等待和超时按原时长的 F 倍运行（0 &lt; F &lt;= 1）；显示的数值仍以策略中的秒数为准。</translation>
    </message>
    <message>
        <source>Run the embedded capped provider on 127.0.0.1 until interrupted.</source>
        <translation>在 127.0.0.1 上运行设有上限的内置服务商，直到被中断。</translation>
    </message>
    <message>
        <source>Port on 127.0.0.1; 0 picks a free one (default).</source>
        <translation>127.0.0.1 上的端口；0 表示自动选择空闲端口（默认）。</translation>
    </message>
    <message>
        <source>What the provider plays: %1 (default: capped).</source>
        <translation>服务商模拟的场景：%1（默认：capped）。</translation>
    </message>
    <message>
        <source>Token cap per window (default: 6000).</source>
        <translation>每个窗口的 Token 上限（默认：6000）。</translation>
    </message>
    <message>
        <source>Length of the rolling window in seconds (default: 60).</source>
        <translation>滚动窗口的长度，单位为秒（默认：60）。</translation>
    </message>
    <message>
        <source>Run windows and delays F times as long (0 &lt; F &lt;= 1).</source>
        <translation>将窗口和延迟按原时长的 F 倍运行（0 &lt; F &lt;= 1）。</translation>
    </message>
    <message>
        <source>Answer the first N requests with the headline token-limit 422 (default: 0).</source>
        <translation>对前 N 个请求返回典型的 Token 上限 422 错误（默认：0）。</translation>
    </message>
    <message>
        <source>Model name; required unless the endpoint is loopback (the demo provider), where it defaults to capwatch-demo.</source>
        <translation>模型名称；除回环端点（演示服务商）外必须提供，回环端点默认为 capwatch-demo。</translation>
    </message>
    <message>
        <source>Sampling temperature, 0 to 2 (default: the provider&apos;s).</source>
        <translation>采样温度，0 到 2（默认：服务商的设置）。</translation>
    </message>
    <message>
        <source>Language of the token-limit errors of capped and headline: %1 (default: en).</source>
        <translation>capped 和 headline 场景的 Token 上限错误所用语言：%1（默认：en）。</translation>
    </message>
    <message>
        <source>Largest request in tokens for the context scenario (default: 2000).</source>
        <translation>context 场景允许的最大请求 Token 数（默认：2000）。</translation>
    </message>
    <message>
        <source>Chat requests per window, reported in every scenario and enforced in capped (default: 1000).</source>
        <translation>每个窗口的聊天请求数，所有场景都会报告，capped 场景会强制执行（默认：1000）。</translation>
    </message>
    <message>
        <source>Answer a request with stream_options with a 400, as providers that do not know it do.</source>
        <translation>对带有 stream_options 的请求返回 400，如同不认识该参数的提供方。</translation>
    </message>
    <message>
        <source>A response header, &apos;Name: value&apos;. Repeatable. With a 2xx status, &apos;Content-Type: text/event-stream&apos; reads the body as an event stream.</source>
        <translation>响应标头，格式为 &apos;Name: value&apos;。可重复。对于 2xx 状态，&apos;Content-Type: text/event-stream&apos; 会将正文作为事件流读取。</translation>
    </message>
    <message>
        <source>Keep nothing on disk: the send is not stored in the history database.</source>
        <translation>不在磁盘上保存任何内容：本次发送不会存入历史数据库。</translation>
    </message>
    <message>
        <source>Store the send in this history database instead of the one capwatch and capwatch-cli share (~/.local/share/capwatch/history.sqlite).</source>
        <translation>将本次发送存入此历史数据库，而非 capwatch 与 capwatch-cli 共用的数据库（~/.local/share/capwatch/history.sqlite）。</translation>
    </message>
    <message>
        <source>Scenarios:</source>
        <translation>场景：</translation>
    </message>
    <message>
        <source>List, show and export the conversations and retry logs capwatch keeps.</source>
        <translation>列出、显示和导出 capwatch 保存的对话和重试日志。</translation>
    </message>
    <message>
        <source>Sum the usage ledger: sends, attempts, tokens, cost, time lost to waits, refusals.</source>
        <translation>汇总用量账本：发送、尝试、令牌、费用、等待损失的时间、拒绝。</translation>
    </message>
    <message>
        <source>Attempts from then on: 7d, 24h, 30d (that long ago) or YYYY-MM-DD (local midnight). Default: 30d.</source>
        <translation>从此之后的尝试：7d、24h、30d（多久以前）或 YYYY-MM-DD（本地午夜）。默认：30d。</translation>
    </message>
    <message>
        <source>Attempts up to the end of DATE, YYYY-MM-DD (local time). Default: now.</source>
        <translation>截至 DATE 结束的尝试，YYYY-MM-DD（本地时间）。默认：现在。</translation>
    </message>
    <message>
        <source>Group by day (local), model, profile or conversation (default: day).</source>
        <translation>按日期（本地）、模型、配置或对话分组（默认：日期）。</translation>
    </message>
    <message>
        <source>table (aligned, the default), json (one object: groups and total, exact numbers) or csv.</source>
        <translation>table（对齐，默认）、json（一个对象：分组与合计，精确数字）或 csv。</translation>
    </message>
    <message>
        <source>The history database (default: the window&apos;s, history.sqlite in capwatch&apos;s data folder). It is only read: never created, migrated or moved.</source>
        <translation>历史数据库（默认：窗口程序所用的数据库，即 capwatch 数据文件夹中的 history.sqlite）。只读取，从不创建、迁移或移动。</translation>
    </message>
    <message>
        <source>list: how many conversations, newest first (default: 20).</source>
        <translation>list：列出的对话数量，最新的在前（默认：20）。</translation>
    </message>
    <message>
        <source>list: a JSON array instead of the table.</source>
        <translation>list：输出 JSON 数组而非表格。</translation>
    </message>
    <message>
        <source>export (required), show: the retry records as jsonl (JSON Lines) or csv.</source>
        <translation>export（必需）、show：重试记录的格式，jsonl（JSON Lines）或 csv。</translation>
    </message>
    <message>
        <source>export: records from DATE on, YYYY-MM-DD (local midnight) or an ISO 8601 date and time (with Z or an offset; without, local time).</source>
        <translation>export：从 DATE 起的记录，格式为 YYYY-MM-DD（本地时间零点）或 ISO 8601 日期时间（带 Z 或时区偏移；不带则为本地时间）。</translation>
    </message>
    <message>
        <source>export: records before DATE, written as for --since.</source>
        <translation>export：DATE 之前的记录，格式同 --since。</translation>
    </message>
    <message>
        <source>export: write the file PATH, complete or not at all, instead of standard output.</source>
        <translation>export：写入文件 PATH 而非标准输出；要么完整写入，要么完全不写。</translation>
    </message>
    <message>
        <source>Subcommands:</source>
        <translation>子命令：</translation>
    </message>
    <message>
        <source>The newest conversations: ID (its first 8 digits), last update (local time), marks (R: retried, U: unanswered), model, title.</source>
        <translation>最新的对话：ID（前 8 位）、最后更新时间（本地时间）、标记（R：有过重试，U：有未回答的发送）、模型、标题。</translation>
    </message>
    <message>
        <source>One conversation by its ID (the UUID, or a unique prefix of at least 8 digits): header, transcript, sends and retry log.</source>
        <translation>按 ID（完整 UUID，或至少 8 位的唯一前缀）显示一个对话：头部信息、对话记录、发送和重试日志。</translation>
    </message>
    <message>
        <source>Every retry record from --since until --until, oldest first: the retry log&apos;s columns, then conversation.</source>
        <translation>从 --since 到 --until 的每条重试记录，最早的在前：先是重试日志的各列，然后是 conversation 列。</translation>
    </message>
    <message>
        <source>Seconds from the first request until the reset scenario&apos;s cap frees (default: 180).</source>
        <translation>从第一个请求到 reset 场景的上限解除所经过的秒数（默认：180）。</translation>
    </message>
    <message>
        <source>Also as --wait-for-reset=MAX (90s, 20m, 2h; default 1h, at most 24h): when the send gives up at its provider&apos;s limit and the limit resets within MAX, wait for the reset and send it again; Ctrl+C cancels.</source>
        <translation>也可写作 --wait-for-reset=MAX（90s、20m、2h；默认：1h，最多 24h）：当发送因达到服务商的上限而放弃、且额度在 MAX 内重置时，等待额度重置后重新发送；按 Ctrl+C 取消。</translation>
    </message>
    <message>
        <source>--wait-for-reset takes MAX after an equals sign (--wait-for-reset=%1), not as the next argument</source>
        <translation>--wait-for-reset 的 MAX 须写在等号之后（--wait-for-reset=%1），而不能作为下一个参数</translation>
    </message>
    <message>
        <source>--wait-for-reset=MAX takes a whole number of seconds, minutes or hours from 1s to 24h, such as 90s, 20m or 2h, not &apos;%1&apos;</source>
        <translation>--wait-for-reset=MAX 需要 1s 到 24h 之间的整数秒、分钟或小时，例如 90s、20m 或 2h，而不是“%1”</translation>
    </message>
    <message>
        <source>not parked: the limit resets in %1, beyond --wait-for-reset=%2</source>
        <translation>未挂起：额度将在 %1 后重置，超出了 --wait-for-reset=%2</translation>
    </message>
    <message>
        <source>the limit has reset; sending again</source>
        <translation>额度已重置；正在重新发送</translation>
    </message>
    <message>
        <source>cancelled while parked; not sent again</source>
        <translation>在挂起期间已取消；不会重新发送</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>parked until %1 (in %2); Ctrl+C cancels</source>
        <translation>已挂起至 %1（%2 后）；按 Ctrl+C 取消</translation>
    </message>
    <message>
        <source>sending in %1</source>
        <translation>%1 后发送</translation>
    </message>
    <message>
        <source>still parked; sending in %1</source>
        <translation>仍在挂起；%1 后发送</translation>
    </message>
    <message>
        <source>Send at once even when the provider&apos;s last report says its window is full (by default the send waits, up to 60 s, for the window to reset).</source>
        <translation>即使服务商最近一次报告表明额度窗口已满，也立即发送（默认情况下，发送会等待额度窗口重置，最多 60 秒）。</translation>
    </message>
    <message>
        <source>A provider profile of the settings file, by id or name: its endpoint, model, key source, headers, context window and retry numbers (the flags given here win). &apos;demo&apos; runs the embedded demo provider in-process.</source>
        <translation>设置文件中的一个服务商配置，按 ID 或名称指定：使用其端点、模型、密钥来源、请求头、上下文窗口和重试数值（此处给出的选项优先）。“demo”会在进程内运行内置演示服务商。</translation>
    </message>
    <message>
        <source>Read --profile from this settings file instead of the window&apos;s (~/.config/capwatch/capwatch.conf).</source>
        <translation>从此设置文件读取 --profile，而非窗口程序所用的设置文件（~/.config/capwatch/capwatch.conf）。</translation>
    </message>
    <message>
        <source>Longest single wait, 1 to 600 s (default: the profile&apos;s, else 60).</source>
        <translation>单次等待的最长时间，1 到 600 秒（默认：配置中的值，否则为 60）。</translation>
    </message>
    <message>
        <source>All waits of the send together, 0 to 3600 s; 0: no retries (default: the profile&apos;s, else 120).</source>
        <translation>本次发送所有等待时间之和，0 到 3600 秒；0 表示不重试（默认：配置中的值，否则为 120）。</translation>
    </message>
    <message>
        <source>Attempts, the first included, 1 to 10 (default: the profile&apos;s, else 5).</source>
        <translation>尝试次数（含首次），1 到 10（默认：配置中的值，否则为 5）。</translation>
    </message>
    <message>
        <source>First backoff wait, doubled each retry, 1 to 60 s (default: the profile&apos;s, else 5).</source>
        <translation>首次退避等待时长，每次重试翻倍，1 到 60 秒（默认：配置中的值，否则为 5）。</translation>
    </message>
    <message>
        <source>When the send ends capped, send it once to the profile&apos;s fallback (a profile with fallback_auto=true does so without this flag).</source>
        <translation>当发送因达到上限而结束时，将其发送一次到该配置的备用配置（设置了 fallback_auto=true 的配置无需此选项也会这样做）。</translation>
    </message>
    <message>
        <source>List the provider profiles of the settings file (capwatch.conf), never a key.</source>
        <translation>列出设置文件（capwatch.conf）中的服务商配置，从不显示密钥。</translation>
    </message>
    <message>
        <source>Read the profiles from this file instead of the window&apos;s settings file (~/.config/capwatch/capwatch.conf).</source>
        <translation>从此文件读取配置，而非窗口程序的设置文件（~/.config/capwatch/capwatch.conf）。</translation>
    </message>
    <message>
        <source>Print a JSON array, one object a profile.</source>
        <translation>输出一个 JSON 数组，每个配置一个对象。</translation>
    </message>
    <message>
        <source>The endpoint the response came from: rules scoped to an endpoint apply only to its responses.</source>
        <translation>响应来自的端点：限定于某个端点的规则只适用于它的响应。</translation>
    </message>
    <message>
        <source>Also use this rules file for this run, after those of ~/.config/capwatch/rules.d. Repeatable. A file with a problem is reported and left out.</source>
        <translation>本次运行另外使用此规则文件，排在 ~/.config/capwatch/rules.d 中的文件之后。可重复。有问题的文件会被报告并略过。</translation>
    </message>
    <message>
        <source>Check a rules file, or list the classification rules in force and where each came from.</source>
        <translation>检查规则文件，或列出生效的分类规则及每条规则的来源。</translation>
    </message>
    <message>
        <source>list: also a rules file of this run, after those of ~/.config/capwatch/rules.d. Repeatable.</source>
        <translation>list：本次运行另外的规则文件，排在 ~/.config/capwatch/rules.d 中的文件之后。可重复。</translation>
    </message>
    <message>
        <source>Tokens of new text per answer in the length scenario; 0 gives empty answers (default: 100).</source>
        <translation>length 场景中每个回答的新文本 Token 数；0 给出空回答（默认：100）。</translation>
    </message>
    <message>
        <source>Bytes of an answer the drop scenario sends before it closes the connection (default: 680).</source>
        <translation>drop 场景在关闭连接前发送的回答字节数（默认：680）。</translation>
    </message>
    <message>
        <source>How the drop scenario breaks a stream: close (the connection, default) or error (an error event after the first words).</source>
        <translation>drop 场景中断流的方式：close（关闭连接，默认）或 error（在最初几个词之后发送一个错误事件）。</translation>
    </message>
    <message>
        <source>Also as --continue-cut-off=N (1 to 3, default 3): when the answer is cut off at the output limit, ask the model to go on from where it stopped, up to N times in a row; each continuation is joined to the same answer.</source>
        <translation>也可写作 --continue-cut-off=N（1 到 3，默认 3）：回答在输出上限处被截断时，让模型从停下的地方接着写，最多连续 N 次；每次续写都接在同一个回答后面。</translation>
    </message>
    <message>
        <source>Instead of a prompt: go on with the last answer of stored conversation ID (its UUID or first 8 hex digits), when it was cut off or interrupted; what comes is joined to it in the history.</source>
        <translation>代替提示词：当已保存的对话 ID（其 UUID 或前 8 位十六进制数字）的最后一个回答被截断或中断时，接着写下去；续写的内容在历史记录中接在它后面。</translation>
    </message>
    <message>
        <source>Report what each answer cost in its usage, as OpenRouter does: &quot;cost&quot;, its tokens times X credits per million tokens (default: no cost).</source>
        <translation>像 OpenRouter 一样在每个回答的 usage 中报告其费用：&quot;cost&quot;，即其 Token 数乘以每百万 Token X 点额度（默认：不报告费用）。</translation>
    </message>
    <message>
        <source>Requests the daily scenario answers per day of the demo&apos;s clock, which --time-scale shortens (default: 5).</source>
        <translation>daily 场景在演示时钟的每一天中回答的请求数，--time-scale 会缩短这一天（默认：5）。</translation>
    </message>
    <message>
        <source>Send even when the send would cross a spending limit of the profile, or a daily limit it declares for its provider (by default it is not sent, and capwatch-cli exits 5).</source>
        <translation>即使本次发送会超出此配置的用量限额，或超出其为服务商设定的每日限制，也照常发送（默认情况下不发送，且 capwatch-cli 以退出码 5 退出）。</translation>
    </message>
    <message>
        <source>not sent: %1 (profile %2); the limit resets at %3. --ignore-spend-limit sends anyway</source>
        <translation>未发送：%1（配置 %2）；限额将于 %3 重置。--ignore-spend-limit 可照常发送</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>unexpected argument &apos;%1&apos;</source>
        <translation>意外的参数“%1”</translation>
    </message>
    <message>
        <source>--time-scale takes a number F with 0 &lt; F &lt;= 1</source>
        <translation>--time-scale 需要一个满足 0 &lt; F &lt;= 1 的数值 F</translation>
    </message>
    <message>
        <source>Chat with this endpoint (base URL or .../chat/completions) for this run.</source>
        <translation>本次运行使用此端点聊天（基础 URL 或 .../chat/completions）。</translation>
    </message>
    <message>
        <source>Use this model for this run.</source>
        <translation>本次运行使用此模型。</translation>
    </message>
    <message>
        <source>Chat with the embedded demo provider, whatever is configured.</source>
        <translation>无论当前配置如何，都与内置演示服务商聊天。</translation>
    </message>
    <message>
        <source>Send this prompt once the window is shown.</source>
        <translation>窗口显示后发送此提示词。</translation>
    </message>
    <message>
        <source>Run every wait and timeout F times as long (0 &lt; F &lt;= 1); figures stay in policy seconds.</source>
        <translation>将每次等待和超时按原时长的 F 倍运行（0 &lt; F &lt;= 1）；显示的数值仍以策略中的秒数为准。</translation>
    </message>
    <message>
        <source>User interface language (de, zh_CN, ...); default: the system&apos;s.</source>
        <translation>用户界面语言（de、zh_CN 等）；默认跟随系统。</translation>
    </message>
    <message>
        <source>Print the man page (roff) and exit.</source>
        <translation>输出 man 手册页（roff 格式）并退出。</translation>
    </message>
    <message>
        <source>A chat client for OpenAI-compatible providers with strict token caps, showing every retry as it happens.</source>
        <translation>面向设有严格 Token 上限的 OpenAI 兼容服务商的聊天客户端，实时显示每一次重试。</translation>
    </message>
    <message>
        <source>Keep nothing on disk for this run: its conversations are not added to the history.</source>
        <translation>本次运行不在磁盘上保存任何内容：其对话不会加入历史记录。</translation>
    </message>
</context>
</TS>
