## /start、/help、/cancel、/language

start-welcome =
    { $name }，您好！我为您的交易租用 TRON 能量，比直接燃烧 TRX 便宜得多。

    首先请绑定账户：发送 /link，并粘贴控制台中的 API 密钥。
    在此之前，/prices 可查看当前价格，/system 可查看服务状态。
start-welcome-linked =
    { $name }，欢迎回来！您的账户已绑定。

    /balance 查看余额和充值地址，/prices 查看当前价格。其他功能请发送 /help。

help-title-private = <b>我能做什么</b>
help-title-group = <b>可在群组中使用的命令</b>
help-group-private = 涉及您账户的操作只能在与 @{ $username } 的私聊中进行。
help-inline = 在任意聊天中输入 <code>@{ $username } 10万 1小时</code> 即可获取报价。

cancel-done = 已取消，未做任何更改。
cancel-nothing = 当前没有可取消的操作。

language-choose = 请选择语言：
language-changed = 好的，此聊天今后将使用中文。
